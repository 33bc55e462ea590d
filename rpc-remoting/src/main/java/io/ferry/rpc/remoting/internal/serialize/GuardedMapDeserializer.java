package io.ferry.rpc.remoting.internal.serialize;

import com.alibaba.com.caucho.hessian.io.AbstractHessianInput;
import com.alibaba.com.caucho.hessian.io.Deserializer;
import com.alibaba.com.caucho.hessian.io.Hessian2Input;
import com.alibaba.com.caucho.hessian.io.MapDeserializer;

import java.io.IOException;
import java.util.Map;

/**
 * hessian-lite's map reader, with each key checked by {@link HashedKeys} between reading it and putting it, so
 * that a key the map should not hash never reaches {@code put}. hessian-lite still creates the map (its class, or
 * HashMap / TreeMap for the interfaces) and registers its reference. A String key costs one type test.
 */
final class GuardedMapDeserializer extends MapDeserializer {
    GuardedMapDeserializer(Class<?> type) {
        super(type);
    }

    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    protected void doReadMap(AbstractHessianInput in, Map map, Class<?> keyType, Class<?> valueType)
            throws IOException {
        Deserializer keys = keyType == null ? null : reader(in, keyType);
        Deserializer values = valueType == null ? null : reader(in, valueType);
        HashedKeys.Collisions collisions = null;
        for (int position = 0; !in.isEnd(); position++) {
            long before = backReferences(in);
            Object key = keys == null ? in.readObject() : keys.readObject(in);
            collisions = HashedKeys.admitted(collisions, key, backReferences(in) != before, map, position);
            map.put(key, values == null ? in.readObject() : values.readObject(in));
        }
    }

    /** The reader hessian-lite uses for elements of a declared type (its fix for Short and Byte elements). */
    static Deserializer reader(AbstractHessianInput in, Class<?> type) throws IOException {
        return ((Hessian2Input) in).getSerializerFactory().getDeserializer(type.getName());
    }

    /** Back-references followed so far, when the input counts them. */
    static long backReferences(AbstractHessianInput in) {
        return in instanceof GuardedHessian2Input g ? g.backReferencesFollowed() : 0;
    }
}
