package io.ferry.rpc.remoting.internal.transport;

import com.sun.management.HotSpotDiagnosticMXBean;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.OptionalLong;

/**
 * The JVM's direct-memory limit, found as the JDK finds it: {@code -XX:MaxDirectMemorySize} when it is set to
 * more than 0, the heap's maximum ({@link Runtime#maxMemory()}) otherwise; or Netty's own cap,
 * {@code -Dio.netty.maxDirectMemory}, when that is set above 0. The flag is read from the HotSpot
 * diagnostic MXBean, which also sees it when it came from {@code JAVA_TOOL_OPTIONS} or an options file; on a
 * JVM without that bean, from the JVM's command-line arguments.
 */
public final class DirectMemory {
    private static final String FLAG = "MaxDirectMemorySize";

    private DirectMemory() {
    }

    /** The limit in bytes. The flag cannot change while the JVM runs, so it is read once. */
    public static long limit() {
        return Holder.LIMIT;
    }

    private static final class Holder {
        static final long LIMIT = nettyLimit().orElseGet(() -> limit(vmOption(), jvmArguments(),
                Runtime.getRuntime().maxMemory()));
    }

    /** Netty's own cap on what it allocates, {@code -Dio.netty.maxDirectMemory}, when it sets one above 0. */
    private static OptionalLong nettyLimit() {
        try {
            long bytes = Long.parseLong(System.getProperty("io.netty.maxDirectMemory", "-1").trim());
            return bytes > 0 ? OptionalLong.of(bytes) : OptionalLong.empty();
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /** The JVM's arguments; none on a runtime image without java.management. */
    private static List<String> jvmArguments() {
        try {
            return ManagementFactory.getRuntimeMXBean().getInputArguments();
        } catch (LinkageError | RuntimeException e) {
            return List.of();
        }
    }

    /**
     * The limit from the flag's value as the diagnostic bean reports it (empty when there is no such bean), the
     * JVM's arguments (the last {@code -XX:MaxDirectMemorySize=} wins, as on the command line), and the heap's
     * maximum for when neither sets more than 0.
     */
    static long limit(OptionalLong vmOption, List<String> jvmArguments, long maxHeap) {
        long bytes = vmOption.isPresent() ? vmOption.getAsLong() : fromArguments(jvmArguments).orElse(0);
        return bytes > 0 ? bytes : maxHeap;
    }

    private static OptionalLong vmOption() {
        try {
            HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            return hotSpot == null ? OptionalLong.empty()
                    : OptionalLong.of(Long.parseLong(hotSpot.getVMOption(FLAG).getValue()));
        } catch (LinkageError | RuntimeException e) { // not HotSpot, or no jdk.management: no bean, no flag
            return OptionalLong.empty();
        }
    }

    /** The last {@code -XX:MaxDirectMemorySize=<size>[k|m|g|t]} of {@code arguments}; empty when none parses. */
    static OptionalLong fromArguments(List<String> arguments) {
        OptionalLong last = OptionalLong.empty();
        String prefix = "-XX:" + FLAG + "=";
        for (String argument : arguments) {
            if (argument.startsWith(prefix)) {
                OptionalLong size = parseSize(argument.substring(prefix.length()).trim());
                if (size.isPresent()) {
                    last = size;
                }
            }
        }
        return last;
    }

    /** {@code 512}, {@code 64k}, {@code 256M}, {@code 2g}, {@code 1T}: HotSpot's size syntax, in bytes. */
    static OptionalLong parseSize(String size) {
        if (size.isEmpty()) {
            return OptionalLong.empty();
        }
        int shift = switch (Character.toLowerCase(size.charAt(size.length() - 1))) {
            case 'k' -> 10;
            case 'm' -> 20;
            case 'g' -> 30;
            case 't' -> 40;
            default -> 0;
        };
        String digits = shift == 0 ? size : size.substring(0, size.length() - 1);
        if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return OptionalLong.empty();
        }
        try {
            long value = Long.parseLong(digits);
            return value > Long.MAX_VALUE >> shift ? OptionalLong.empty() : OptionalLong.of(value << shift);
        } catch (NumberFormatException e) { // more digits than a long holds
            return OptionalLong.empty();
        }
    }
}
