package io.ferry.rpc.config;

import io.ferry.rpc.Filter;
import io.ferry.rpc.remoting.Dispatcher;
import io.ferry.rpc.remoting.ServerOptions;
import io.ferry.rpc.remoting.ThreadPoolKind;
import io.ferry.rpc.remoting.Validate;
import io.ferry.rpc.remoting.SocketOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * How this process serves its exported services: the Dubbo protocol on one port. Every option and default is
 * {@link ServerOptions}'s; this builder only names them in one place for applications.
 */
public final class ProtocolConfig {
    private final ServerOptions server;
    private final String advertisedHost;
    private final List<Filter> filters;

    private ProtocolConfig(ServerOptions server, String advertisedHost, List<Filter> filters) {
        this.filters = List.copyOf(filters);
        this.server = server;
        this.advertisedHost = advertisedHost;
    }

    public static ProtocolConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public ServerOptions serverOptions() {
        return server;
    }

    /** The address registered for consumers, or null to derive it (the bound host, else this host's own). */
    public String advertisedHost() {
        return advertisedHost;
    }

    /** Provider filters around every exported service's calls, in order, before each service's own. */
    public List<Filter> filters() {
        return filters;
    }

    public static final class Builder {
        private final ServerOptions.Builder server = ServerOptions.builder();
        private final List<Filter> filters = new ArrayList<>();

        /** Adds a provider filter around every exported service's calls. */
        public Builder filter(Filter filter) {
            filters.add(Validate.notNull("filter", filter));
            return this;
        }
        private String advertisedHost;

        /** The address consumers should connect to, when it differs from the bound one (NAT, containers). */
        public Builder advertisedHost(String host) {
            this.advertisedHost = host == null || host.isBlank() ? null : host;
            return this;
        }

        /** The address to bind; default every local address. */
        public Builder host(String host) {
            server.host(host);
            return this;
        }

        /** Default 20880; 0 picks a free port. */
        public Builder port(int port) {
            server.port(port);
            return this;
        }

        /** Server IO threads; default min(cores + 1, 32). */
        public Builder ioThreads(int ioThreads) {
            server.ioThreads(ioThreads);
            return this;
        }

        /** Business threads; default 200. */
        public Builder threads(int threads) {
            server.threads(threads);
            return this;
        }

        /** How the business pool grows: fixed (default), cached, limited or eager. */
        public Builder threadPool(ThreadPoolKind kind) {
            server.threadPool(kind);
            return this;
        }

        /** Threads a cached, limited or eager pool keeps however idle; default 0. */
        public Builder coreThreads(int coreThreads) {
            server.coreThreads(coreThreads);
            return this;
        }

        /** How long an idle thread beyond the core ones lives in a cached or eager pool; default 60 s. */
        public Builder alive(Duration alive) {
            server.alive(alive);
            return this;
        }

        /** Where requests run: on the business pool (all, default) or on the IO thread (direct). */
        public Builder dispatcher(Dispatcher dispatcher) {
            server.dispatcher(dispatcher);
            return this;
        }

        /** Business queue; default 0 (none: a full pool answers THREADPOOL_EXHAUSTED at once). */
        public Builder queues(int queues) {
            server.queues(queues);
            return this;
        }

        /** Accept queue; default 1024. */
        public Builder backlog(int backlog) {
            server.backlog(backlog);
            return this;
        }

        /** Largest request or response body; default 8 MiB. */
        public Builder payloadBytes(int payloadBytes) {
            server.payloadBytes(payloadBytes);
            return this;
        }

        /** Default 500 ms of grace after the readonly event, and up to 10 s for requests in flight. */
        public Builder shutdown(Duration grace, Duration timeout) {
            server.shutdown(grace, timeout);
            return this;
        }

        /** Provider heartbeat: it closes connections with no reads for 3 x this. Default 60 s. */
        public Builder heartbeat(Duration heartbeat) {
            server.heartbeat(heartbeat);
            return this;
        }

        /** Most connections accepted; 0 (default) for no limit. */
        public Builder accepts(int accepts) {
            server.accepts(accepts);
            return this;
        }

        public Builder socket(SocketOptions socket) {
            server.socket(socket);
            return this;
        }

        /** How long a frame may take to arrive whole, from its first byte (default 10 s). */
        public Builder frameTimeout(Duration timeout) {
            server.frameTimeout(timeout);
            return this;
        }

        /** What frames arriving in pieces may hold between them (default a quarter of direct memory). */
        public Builder partialFrameBudgetBytes(long bytes) {
            server.partialFrameBudgetBytes(bytes);
            return this;
        }

        public ProtocolConfig build() {
            return new ProtocolConfig(server.build(), advertisedHost, filters);
        }
    }
}
