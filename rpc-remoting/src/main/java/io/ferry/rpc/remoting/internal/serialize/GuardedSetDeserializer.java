package io.ferry.rpc.remoting.internal.serialize;

import com.alibaba.com.caucho.hessian.io.AbstractHessianInput;
import com.alibaba.com.caucho.hessian.io.CollectionDeserializer;
import com.alibaba.com.caucho.hessian.io.Deserializer;

import java.io.IOException;
import java.util.Collection;

/**
 * hessian-lite's collection reader for sets, with each element checked by {@link HashedKeys} before the set
 * hashes it (see {@link GuardedMapDeserializer}). Lists keep hessian-lite's own reader: they hash nothing.
 */
final class GuardedSetDeserializer extends CollectionDeserializer {
    GuardedSetDeserializer(Class<?> type) {
        super(type);
    }

    @Override
    public Object readList(AbstractHessianInput in, int length) throws IOException {
        return read(in, -1, null);
    }

    @Override
    public Object readList(AbstractHessianInput in, int length, Class<?> expectType) throws IOException {
        return read(in, -1, expectType);
    }

    @Override
    public Object readLengthList(AbstractHessianInput in, int length) throws IOException {
        return read(in, length, null);
    }

    @Override
    public Object readLengthList(AbstractHessianInput in, int length, Class<?> expectType) throws IOException {
        return read(in, length, expectType);
    }

    /** {@code length} -1: elements up to the end mark. */
    @SuppressWarnings("unchecked")
    private Object read(AbstractHessianInput in, int length, Class<?> elementType) throws IOException {
        // asked for no element, hessian-lite creates the set of the right class and registers its reference
        Collection<Object> set = (Collection<Object>) super.readLengthList(in, 0, null);
        Deserializer elements = elementType == null ? null : GuardedMapDeserializer.reader(in, elementType);
        HashedKeys.Collisions collisions = null;
        for (int position = 0; length < 0 ? !in.isEnd() : position < length; position++) {
            long before = GuardedMapDeserializer.backReferences(in);
            Object element = elements == null ? in.readObject() : elements.readObject(in);
            collisions = HashedKeys.admitted(collisions, element, GuardedMapDeserializer.backReferences(in) != before,
                    set, position);
            set.add(element);
        }
        if (length < 0) {
            in.readEnd();
        }
        return set;
    }
}
