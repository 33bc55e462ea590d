package io.ferry.rpc.config.internal.observation;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The meters one Ferry registered, so that closing it removes them, and only them: a meter whose name and tags
 * another Ferry of the same registry registered first stays that Ferry's (Micrometer hands back the existing one),
 * and is named once in a WARN. Every meter has a description; state objects are held weakly, as Micrometer does by
 * default, so a meter never keeps a dropped Ferry alive. Thread-safe.
 */
final class MeterSet {
    private static final Logger log = LoggerFactory.getLogger(MeterSet.class);

    private final MeterRegistry registry;
    private final List<Meter> mine = new ArrayList<>();
    private boolean closed;
    private boolean sharedWarned;

    MeterSet(MeterRegistry registry) {
        this.registry = registry;
    }

    MeterRegistry registry() {
        return registry;
    }

    /** A gauge of {@code state}, read with {@code value}; {@code unit} null for a plain number (a 0/1 flag). */
    <T> void gauge(String name, String description, String unit, Tags tags, T state, ToDoubleFunction<T> value) {
        add(name, tags, () -> Gauge.builder(name, state, value).description(description).baseUnit(unit).tags(tags)
                .register(registry));
    }

    /** A counter whose total is read from {@code state}: it only grows while {@code state} lives. */
    <T> void counter(String name, String description, String unit, Tags tags, T state, ToDoubleFunction<T> total) {
        add(name, tags, () -> FunctionCounter.builder(name, state, total).description(description).baseUnit(unit)
                .tags(tags).register(registry));
    }

    private synchronized void add(String name, Tags tags, java.util.function.Supplier<Meter> register) {
        if (closed) {
            return; // a part started while the Ferry closed: nothing left to remove it later
        }
        Meter before = registry.find(name).tags(tags).meter();
        if (before != null && mine.contains(before)) {
            return; // bound already (a pool looked at again as a service is exported)
        }
        Meter meter = register.get();
        if (meter == before) {
            if (!sharedWarned) {
                sharedWarned = true;
                log.warn("{}{} is already in the meter registry (another Ferry's?): it keeps showing the first one's"
                        + " values; give each Ferry a registry of its own", name, tags);
            }
            return;
        }
        mine.add(meter);
    }

    /** Removes every meter registered here; none is added after. */
    synchronized void removeAll() {
        closed = true;
        mine.forEach(registry::remove);
        mine.clear();
    }
}
