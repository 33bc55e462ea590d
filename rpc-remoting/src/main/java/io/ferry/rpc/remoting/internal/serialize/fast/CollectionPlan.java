package io.ferry.rpc.remoting.internal.serialize.fast;

import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collection;

/** A collection as hessian-lite's CollectionSerializer writes it: typed by its class unless an ArrayList. */
final class CollectionPlan implements WritePlan {
    private final String type;

    private CollectionPlan(Class<?> type) {
        this.type = type == ArrayList.class || !Serializable.class.isAssignableFrom(type) ? null : type.getName();
    }

    static WritePlan of(Class<?> type) {
        return new CollectionPlan(type);
    }

    @Override
    public void write(Object value, FastHessian2Output out) throws IOException {
        if (out.addRef(value)) {
            return;
        }
        Collection<?> collection = (Collection<?>) value;
        boolean hasEnd = out.writeListBegin(collection.size(), type);
        // by its iterator, as hessian-lite does: a list may order or filter its elements there
        for (Object element : collection) {
            out.writeObject(element);
        }
        if (hasEnd) {
            out.writeListEnd();
        }
    }
}
