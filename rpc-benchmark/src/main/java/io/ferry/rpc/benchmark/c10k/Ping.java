package io.ferry.rpc.benchmark.c10k;

/** The experiment's service: the cheapest call there is, so the transport is what gets measured. */
public interface Ping {
    long ping(long value);
}
