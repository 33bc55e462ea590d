package io.ferry.rpc.benchmark.suite.systems;

import java.lang.reflect.InvocationTargetException;
import java.util.List;

/**
 * The systems the suite compares, by name. Each is loaded by name, so that a JVM only loads the classes of the
 * system it runs.
 */
public final class Systems {
    /**
     * Ferry; Dubbo 3.3.6 with hessian2 and with fastjson2 on both sides; the raw Netty echo ceiling: comma-separated,
     * as the command lines that take a list of systems default to.
     */
    public static final String ALL_NAMES = "ferry,dubbo,dubbo-fastjson2,echo";
    /** {@link #ALL_NAMES}, one by one. */
    public static final List<String> ALL = List.of(ALL_NAMES.split(","));

    private Systems() {
    }

    public static Provider provider(String system, String host, int port, Tuning tuning) {
        return (Provider) call(system, "provider", host, port, tuning);
    }

    public static Consumer consumer(String system, String host, int port, Tuning tuning) {
        return (Consumer) call(system, "consumer", host, port, tuning);
    }

    private static Object call(String name, String what, String host, int port, Tuning tuning) {
        String system = Variant.parse(name).system();
        String type = switch (system) {
            case "ferry" -> "FerrySystem";
            case "dubbo", "dubbo-fastjson2" -> "DubboSystem";
            case "echo" -> "EchoSystem";
            default -> throw new IllegalArgumentException("system: " + system + " (expected: one of " + ALL + ")");
        };
        try {
            return Class.forName(Systems.class.getPackageName() + "." + type)
                    .getMethod(what, String.class, String.class, int.class, Tuning.class)
                    .invoke(null, system, host, port, tuning);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
