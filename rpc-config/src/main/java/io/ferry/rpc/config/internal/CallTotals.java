package io.ferry.rpc.config.internal;

import java.util.List;

/**
 * The calls' timers ({@code rpc.client.duration}, {@code rpc.server.duration}) summed per side, service and method,
 * for the admin port's {@code /calls} and its page. Free of Micrometer's types, like {@link MetricsScrape}: a Ferry
 * without a meter registry has none and loads nothing behind it.
 */
public interface CallTotals {
    /** Every side, service and method a timer exists for, sorted by them; read on the admin thread. */
    List<Row> rows();

    /**
     * One method on one side, since its first call.
     *
     * @param side    {@code client} (this process's references) or {@code server} (its services)
     * @param service the interface's fully qualified name
     * @param method  the method's name
     * @param calls   calls ended, whatever their status
     * @param errors  of those, the calls whose status was not {@code OK}
     * @param totalMs the time of all of them, in milliseconds
     * @param maxMs   the longest call of the registry's recent window (Micrometer's decaying max), in milliseconds
     */
    record Row(String side, String service, String method, long calls, long errors, double totalMs, double maxMs) {
    }
}
