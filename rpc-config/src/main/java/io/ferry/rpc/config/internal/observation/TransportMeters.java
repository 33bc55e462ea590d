package io.ferry.rpc.config.internal.observation;

import io.ferry.rpc.remoting.Client;
import io.ferry.rpc.remoting.ConnectionInfo;
import io.ferry.rpc.remoting.Server;
import io.ferry.rpc.remoting.TransportStats;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;

import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToLongFunction;

import static io.ferry.rpc.config.observation.FerryMeterNames.BACKPRESSURE_PAUSES;
import static io.ferry.rpc.config.observation.FerryMeterNames.BYTES;
import static io.ferry.rpc.config.observation.FerryMeterNames.CONNECTIONS;
import static io.ferry.rpc.config.observation.FerryMeterNames.DIRECTION;
import static io.ferry.rpc.config.observation.FerryMeterNames.SIDE;
import static io.ferry.rpc.config.observation.FerryMeterNames.STATE;

/** The meters of one side of the transport: connections by state, bytes each way, back-pressure pauses. */
final class TransportMeters {
    private TransportMeters() {
    }

    static void client(MeterSet meters, Client client) {
        bind(meters, "client", client, Client::connectionCounts, Client::transportStats,
                "consumer connections that stopped taking calls because their outbound buffer crossed its high water"
                        + " mark (the provider did not read fast enough)");
    }

    static void server(MeterSet meters, Server server) {
        bind(meters, "server", server, Server::connectionCounts, Server::transportStats,
                "consumer connections the provider stopped reading from because their answers could not go out");
    }

    /** {@code side}'s meters, read from {@code transport} (a Client or Server, held weakly). */
    private static <T> void bind(MeterSet meters, String side, T transport,
                                 Function<T, Map<ConnectionInfo.State, Integer>> counts,
                                 Function<T, TransportStats> stats, String pausesMeaning) {
        for (ConnectionInfo.State state : ConnectionInfo.State.values()) {
            meters.gauge(CONNECTIONS, "Connections of this side in the state the tag names", BaseUnits.CONNECTIONS,
                    Tags.of(SIDE, side, STATE, state.name().toLowerCase(Locale.ROOT)), transport,
                    t -> counts.apply(t).get(state));
        }
        counter(meters, side, "in", "Bytes of Dubbo frames read (TLS taken off)", transport, stats,
                TransportStats::bytesRead);
        counter(meters, side, "out", "Bytes of Dubbo frames written (before TLS)", transport, stats,
                TransportStats::bytesWritten);
        meters.counter(BACKPRESSURE_PAUSES, "Back-pressure pauses: " + pausesMeaning, "pauses", Tags.of(SIDE, side),
                transport, t -> stats.apply(t).backPressurePauses());
    }

    private static <T> void counter(MeterSet meters, String side, String direction, String description, T transport,
                                    Function<T, TransportStats> stats, ToLongFunction<TransportStats> field) {
        meters.counter(BYTES, description, BaseUnits.BYTES, Tags.of(SIDE, side, DIRECTION, direction), transport,
                t -> field.applyAsLong(stats.apply(t)));
    }
}
