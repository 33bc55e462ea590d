package io.ferry.rpc.remoting.internal.serialize.fast;

import java.util.Date;
import java.util.Map;

/**
 * The JDK value classes hessian-lite writes with its BasicSerializer, each as the same single write call; used only
 * when the factory would indeed use hessian-lite's BasicSerializer for the class.
 */
final class BasicPlans {
    private static final Map<Class<?>, WritePlan> PLANS = Map.ofEntries(
            Map.entry(String.class, (v, out) -> out.writeString((String) v)),
            Map.entry(Integer.class, (v, out) -> out.writeInt((Integer) v)),
            Map.entry(Long.class, (v, out) -> out.writeLong((Long) v)),
            Map.entry(Boolean.class, (v, out) -> out.writeBoolean((Boolean) v)),
            Map.entry(Double.class, (v, out) -> out.writeDouble((Double) v)),
            Map.entry(Short.class, (v, out) -> out.writeInt((Short) v)),
            Map.entry(Byte.class, (v, out) -> out.writeInt((Byte) v)),
            // hessian-lite widens a float through its decimal text, so that 0.1f arrives as 0.1
            Map.entry(Float.class, (v, out) -> out.writeDouble(Double.parseDouble(String.valueOf((float) (Float) v)))),
            Map.entry(Character.class, (v, out) -> out.writeString(String.valueOf(v))),
            Map.entry(Date.class, (v, out) -> out.writeUTCDate(((Date) v).getTime())));

    private BasicPlans() {
    }

    /** The plan for {@code type}, or null if it is not one of these classes. */
    static WritePlan forClass(Class<?> type) {
        return PLANS.get(type);
    }
}
