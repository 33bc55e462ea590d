package io.ferry.rpc.remoting.internal.serialize.fast;

import java.io.IOException;
import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;

/** A map as hessian-lite's MapSerializer writes it: typed by its class unless a HashMap. */
final class MapPlan implements WritePlan {
    private final String type;

    private MapPlan(Class<?> type) {
        this.type = type == HashMap.class || !Serializable.class.isAssignableFrom(type) ? null : type.getName();
    }

    static WritePlan of(Class<?> type) {
        return new MapPlan(type);
    }

    @Override
    public void write(Object value, FastHessian2Output out) throws IOException {
        if (out.addRef(value)) {
            return;
        }
        out.writeMapBegin(type);
        for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
            out.writeObject(entry.getKey());
            out.writeObject(entry.getValue());
        }
        out.writeMapEnd();
    }
}
