package io.ferry.rpc.remoting.internal.serialize.fast;

import com.alibaba.com.caucho.hessian.io.BasicSerializer;
import com.alibaba.com.caucho.hessian.io.CollectionSerializer;
import com.alibaba.com.caucho.hessian.io.MapSerializer;
import com.alibaba.com.caucho.hessian.io.Serializer;
import com.alibaba.com.caucho.hessian.io.SerializerFactory;
import com.alibaba.com.caucho.hessian.io.UnsafeSerializer;

import java.lang.ref.WeakReference;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The write plan of each class, for one serializer factory. A class gets a plan of Ferry's only where the factory
 * would hand out one of hessian-lite's stock serializers for it, its {@code java.time} ones included (so a
 * serializer the user or Ferry registered, a {@code writeReplace}, an unshared class, Throwables, enums... all keep
 * theirs); every other class is written by the factory's own serializer through the same output, so references
 * and class definitions stay one sequence. Thread-safe.
 */
final class WritePlans {
    private static final Map<SerializerFactory, WritePlans> BY_FACTORY = new WeakHashMap<>();

    /** Weakly, so that the map's value does not keep its own key alive. */
    private final WeakReference<SerializerFactory> factory;
    private final ClassValue<WritePlan> byClass = new ClassValue<>() {
        @Override
        protected WritePlan computeValue(Class<?> type) {
            return planOf(type);
        }
    };

    private WritePlans(SerializerFactory factory) {
        this.factory = new WeakReference<>(factory);
    }

    static WritePlans of(SerializerFactory factory) {
        synchronized (BY_FACTORY) {
            return BY_FACTORY.computeIfAbsent(factory, WritePlans::new);
        }
    }

    boolean isFor(SerializerFactory candidate) {
        return factory.get() == candidate;
    }

    WritePlan planFor(Class<?> type) {
        return byClass.get(type);
    }

    private WritePlan planOf(Class<?> type) {
        SerializerFactory owner = factory.get();
        Serializer stock;
        try {
            stock = owner.getObjectSerializer(type);
        } catch (Exception | LinkageError e) {
            // let the factory fail again where hessian-lite would, with its own message
            return (value, out) -> out.factory().getObjectSerializer(type).writeObject(value, out);
        }
        WritePlan plan = ownPlan(type, stock, owner);
        if (plan != null) {
            return plan;
        }
        return stock::writeObject;
    }

    private static WritePlan ownPlan(Class<?> type, Serializer stock, SerializerFactory factory) {
        Class<?> kind = stock.getClass();
        if (kind == BasicSerializer.class) {
            return BasicPlans.forClass(type);
        }
        if (kind == CollectionSerializer.class && ((CollectionSerializer) stock).getSendJavaType()) {
            return CollectionPlan.of(type);
        }
        if (kind == MapSerializer.class && ((MapSerializer) stock).getSendJavaType()) {
            return MapPlan.of(type);
        }
        if (kind == UnsafeSerializer.class) {
            return PojoPlan.of(type);
        }
        return TimePlans.forSerializer(stock, factory);
    }
}
