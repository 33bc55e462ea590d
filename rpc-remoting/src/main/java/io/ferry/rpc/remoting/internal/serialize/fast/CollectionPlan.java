package io.ferry.rpc.remoting.internal.serialize.fast;

import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.RandomAccess;

/** A collection as hessian-lite's CollectionSerializer writes it: typed by its class unless an ArrayList. */
final class CollectionPlan implements WritePlan {
    private final String type;
    private final boolean indexed;

    private CollectionPlan(Class<?> type) {
        this.type = type == ArrayList.class || !Serializable.class.isAssignableFrom(type) ? null : type.getName();
        // walking by index writes the same elements in the same order without an iterator
        this.indexed = List.class.isAssignableFrom(type) && RandomAccess.class.isAssignableFrom(type);
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
        if (indexed) {
            List<?> list = (List<?>) collection;
            for (int i = 0, n = list.size(); i < n; i++) {
                out.writeObject(list.get(i));
            }
        } else {
            for (Object element : collection) {
                out.writeObject(element);
            }
        }
        if (hasEnd) {
            out.writeListEnd();
        }
    }
}
