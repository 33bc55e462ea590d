package io.ferry.rpc.remoting;

import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.remoting.internal.exchange.Connection;
import io.netty.channel.EventLoop;

import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;

/**
 * One connection's place in a client: holds the live connection, or connects (once, however many callers ask at the
 * same time) when there is none or it has closed. Pinned to one event loop, so a client's connections stay on
 * distinct IO threads across reconnects.
 */
final class ConnectionSlot {
    private final ClientTransport transport;
    private final InetSocketAddress address;
    private final ClientOptions options;
    private final EventLoop loop;
    private volatile CompletableFuture<Connection> ready;
    private CompletableFuture<Connection> connecting;
    private boolean closed;

    ConnectionSlot(ClientTransport transport, InetSocketAddress address, ClientOptions options, EventLoop loop) {
        this.transport = transport;
        this.address = address;
        this.options = options;
        this.loop = loop;
    }

    /** The live connection, or the future of the connect under way. */
    CompletableFuture<Connection> connection() {
        CompletableFuture<Connection> r = ready;
        if (r != null && r.join().isActive()) {
            return r;
        }
        synchronized (this) {
            if (closed) {
                return CompletableFuture.failedFuture(RpcException.notExecuted(RpcStatus.ILLEGAL_STATE,
                        "client of " + address + " is closed", null));
            }
            r = ready;
            if (r != null && r.join().isActive()) {
                return r;
            }
            if (connecting != null && connecting.isDone() && !connecting.isCompletedExceptionally()
                    && connecting.join().isActive()) {
                // connected, and connected() has not run yet: adopt it rather than open a second connection
                ready = connecting;
                return connecting;
            }
            if (connecting == null || connecting.isDone()) {
                ready = null;
                connecting = transport.connect(address, options, loop);
                connecting.thenAccept(this::connected);
            }
            return connecting;
        }
    }

    private void connected(Connection connection) {
        synchronized (this) {
            if (closed) {
                connection.close();
            } else if (ready == null || ready.join() != connection) {
                ready = CompletableFuture.completedFuture(connection);
            }
        }
    }

    /** The connection if there is one now, else null. */
    Connection current() {
        CompletableFuture<Connection> r = ready;
        return r == null ? null : r.join();
    }

    void close() {
        Connection current;
        synchronized (this) {
            closed = true;
            current = current();
        }
        if (current != null) {
            current.close();
        }
    }
}
