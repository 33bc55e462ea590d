package io.ferry.rpc.remoting.internal.serialize;

import com.alibaba.com.caucho.hessian.io.AbstractDeserializer;
import com.alibaba.com.caucho.hessian.io.AbstractHessianInput;
import com.alibaba.com.caucho.hessian.io.Deserializer;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads an object of a class this side does not have, or does not allow, as Dubbo's generic form: a {@code HashMap}
 * of its fields with {@code class} naming the class. For generic callers only ({@link
 * SafeSerializerFactory#unknownAsMaps}); every field value is read through the same factory, so its checks apply.
 */
final class ClassMapDeserializer extends AbstractDeserializer {
    private final String className;
    private final Deserializer maps;

    ClassMapDeserializer(String className, Deserializer maps) {
        this.className = className;
        this.maps = maps;
    }

    @Override
    public Class<?> getType() {
        return HashMap.class;
    }

    /** An object: a class definition's field names, then one value each. */
    @Override
    public Object readObject(AbstractHessianInput in, Object[] fields) throws IOException {
        Map<String, Object> map = new HashMap<>();
        in.addRef(map);
        map.put("class", className);
        for (Object field : fields) {
            map.put(String.valueOf(field), in.readObject());
        }
        return map;
    }

    @Override
    public Object readObject(AbstractHessianInput in, String[] fields) throws IOException {
        return readObject(in, (Object[]) fields);
    }

    /** A map typed with the class's name: its entries, checked as any map's, and the name. */
    @Override
    @SuppressWarnings("unchecked")
    public Object readMap(AbstractHessianInput in) throws IOException {
        Map<Object, Object> map = (Map<Object, Object>) maps.readMap(in);
        map.putIfAbsent("class", className);
        return map;
    }
}
