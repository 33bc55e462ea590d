package io.ferry.rpc.remoting;

/**
 * Where a provider runs requests: Dubbo's {@code dispatcher} names. Heartbeats, readonly events and connection
 * events always stay on the IO thread (they run no user code and allocate nothing beyond their frame), so the
 * kinds Dubbo tells apart by where those run behave alike here.
 */
public enum Dispatcher {
    /** Every request is decoded and run on the business pool. The default. */
    ALL("all"),
    /**
     * Every request is decoded and run on the IO thread that read it: no thread hop, for methods that are quick
     * and never block. A method that blocks stalls every connection on that IO thread; the pool is not used.
     */
    DIRECT("direct"),
    /** Requests on the business pool; the same as {@link #ALL} here. */
    MESSAGE("message"),
    /** Requests on the business pool; the same as {@link #ALL} here. */
    EXECUTION("execution"),
    /** Requests on the business pool, connection events in order on one thread: the same as {@link #ALL} here. */
    CONNECTION("connection");

    private final String dubboName;

    Dispatcher(String dubboName) {
        this.dubboName = dubboName;
    }

    public String dubboName() {
        return dubboName;
    }
}
