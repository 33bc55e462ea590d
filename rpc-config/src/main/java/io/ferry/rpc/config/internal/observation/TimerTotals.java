package io.ferry.rpc.config.internal.observation;

import io.ferry.rpc.config.internal.CallTotals;
import io.ferry.rpc.config.observation.RpcObservations;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The calls' timers of a meter registry summed over their status and error tags: one row per side, service and
 * method. Read from the timers Ferry (or an observation registry's meter handler) registered there, so a registry
 * shared by several Ferrys shows them all.
 */
final class TimerTotals implements CallTotals {
    private static final Comparator<Row> ORDER = Comparator.comparing(Row::side).thenComparing(Row::service)
            .thenComparing(Row::method);

    private final MeterRegistry registry;

    TimerTotals(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public List<Row> rows() {
        Map<String, Row> rows = new TreeMap<>();
        add(rows, "client", registry.find(RpcObservations.CLIENT).timers());
        add(rows, "server", registry.find(RpcObservations.SERVER).timers());
        List<Row> sorted = new ArrayList<>(rows.values());
        sorted.sort(ORDER);
        return sorted;
    }

    private static void add(Map<String, Row> rows, String side, Iterable<Timer> timers) {
        for (Timer timer : timers) {
            String service = timer.getId().getTag(RpcObservations.SERVICE);
            String method = timer.getId().getTag(RpcObservations.METHOD);
            if (service == null || method == null) {
                continue; // not one of a call's timers, whoever registered it under that name
            }
            long count = timer.count();
            long errors = RpcObservations.OK.equals(timer.getId().getTag(RpcObservations.STATUS)) ? 0 : count;
            Row row = new Row(side, service, method, count, errors, timer.totalTime(TimeUnit.MILLISECONDS),
                    timer.max(TimeUnit.MILLISECONDS));
            rows.merge(side + ' ' + service + ' ' + method, row, TimerTotals::sum);
        }
    }

    private static Row sum(Row a, Row b) {
        return new Row(a.side(), a.service(), a.method(), a.calls() + b.calls(), a.errors() + b.errors(),
                a.totalMs() + b.totalMs(), Math.max(a.maxMs(), b.maxMs()));
    }
}
