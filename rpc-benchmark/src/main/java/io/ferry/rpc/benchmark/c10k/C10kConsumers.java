package io.ferry.rpc.benchmark.c10k;

import java.util.concurrent.CompletableFuture;

/** The driver's N consumers, one connection each, as one system or the other holds them. */
interface C10kConsumers extends AutoCloseable {
    /** Starts one call; {@code turn} counts the calls, so that they go round the connections. */
    CompletableFuture<?> ping(int turn, long value);

    /** Connections ready for calls now, or -1 where the consumers cannot tell. */
    int ready();

    @Override
    void close();
}
