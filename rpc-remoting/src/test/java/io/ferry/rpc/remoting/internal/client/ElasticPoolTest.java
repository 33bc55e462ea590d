package io.ferry.rpc.remoting.internal.client;

import io.ferry.rpc.ClassAllowList;
import io.ferry.rpc.Deadline;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Result;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.remoting.ClientOptions;
import io.ferry.rpc.remoting.ConnectionInfo;
import io.ferry.rpc.remoting.Greeter;
import io.ferry.rpc.remoting.Server;
import io.ferry.rpc.remoting.ServerOptions;
import io.ferry.rpc.remoting.ServiceExport;
import io.ferry.rpc.remoting.SocketOptions;
import io.ferry.rpc.remoting.TcpProxy;
import io.ferry.rpc.remoting.internal.codec.Frame;
import io.ferry.rpc.remoting.internal.codec.FrameEncoder;
import io.ferry.rpc.remoting.internal.codec.RequestCodec;
import io.ferry.rpc.remoting.internal.exchange.Connection;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.ferry.rpc.remoting.internal.service.ServiceSchema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shared pool to a provider over real sockets, with a proxy that can stop reading what the consumer sends (a
 * provider that has stopped reading) and a fake clock for the pool's sizing: one connection under normal load,
 * another once every connection has stayed congested, back to one after the extra has been idle; and a call that
 * finds nothing writable fails CONGESTED within its wait, not sent.
 */
class ElasticPoolTest {
    private static final String BIG = "x".repeat(4096);
    private static final ServiceSchema GREETER = ServiceSchema.of(Greeter.class, ClassAllowList.none(),
            ServiceSchema.Side.CONSUMER);

    private final AtomicLong clock = new AtomicLong();
    private final ClientResources resources = new ClientResources(4, clock::get);
    private Server server;
    private TcpProxy proxy;
    private ProviderClient endpoint;

    @BeforeEach
    void start() throws Exception {
        // a queue behind the 200 threads: once the proxy resumes, the 256 one-way calls that congested the first
        // connection reach the provider at once, and the call behind them must not find the pool full
        server = Server.start(ServerOptions.builder().host("127.0.0.1").port(0).queues(1_000).build());
        server.export(ServiceExport.of(Greeter.class, invocation -> CompletableFuture.completedFuture(
                Result.of("hello " + ((String) invocation.arguments()[0]).length()))));
        proxy = new TcpProxy(server.address());
    }

    @AfterEach
    void stop() throws Exception {
        if (endpoint != null) {
            endpoint.close();
        }
        proxy.close();
        resources.close();
        server.close();
    }

    private void open(ClientOptions.Builder options) throws Exception {
        endpoint = new ProviderClient(resources, proxy.address(), GREETER, options
                .socket(SocketOptions.builder().sendBufferBytes(16 * 1024).build()).build(), 100, Duration.ZERO);
        endpoint.whenReady().get(10, TimeUnit.SECONDS);
    }

    private CompletableFuture<Result> hello(String name, long timeoutMillis) throws Exception {
        return endpoint.invoke(new Invocation(Greeter.class.getName(), "", "",
                Greeter.class.getMethod("hello", String.class), new Object[] {name}, new HashMap<>(),
                Deadline.after(Duration.ofMillis(timeoutMillis), Ticker.system()), false,
                resources.callbackExecutor()));
    }

    /**
     * Stalls the connections open now and queues a mebibyte of one-way calls on the first, far more than the
     * kernel's buffers take: it stays unwritable until the proxy resumes.
     */
    private void congestFirstConnection() throws Exception {
        proxy.stallExisting();
        Connection first = endpoint.pool().slots()[0].current();
        Invocation oneway = new Invocation(Greeter.class.getName(), "", "", Greeter.class.getMethod("hello",
                String.class), new Object[] {BIG}, new HashMap<>(), Deadline.none(), true, Runnable::run);
        ByteBuf frame = FrameEncoder.encode(ByteBufAllocator.DEFAULT, Frame.FLAG_REQUEST | Frame.HESSIAN2, (byte) 0,
                1, GREETER.serializerFactory(), 1 << 20, out -> RequestCodec.write(out, oneway,
                        GREETER.method(oneway.method())));
        try {
            for (int i = 0; i < (1 << 20) / frame.readableBytes(); i++) {
                first.channel().writeAndFlush(frame.retainedDuplicate());
            }
        } finally {
            frame.release();
        }
        proxy.awaitStalled();
        first.channel().eventLoop().submit(() -> { }).get(10, TimeUnit.SECONDS);
        assertTrue(!first.isWritable(), "queued: " + first.queuedBytes());
    }

    @Test
    void growsWhileEveryConnectionStaysCongestedAndShrinksOnceTheExtraIsIdle() throws Exception {
        open(ClientOptions.builder().maxConnections(3));
        for (int i = 0; i < 200; i++) {
            clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(5));
            assertEquals("hello 1", hello("a", 5_000).get(10, TimeUnit.SECONDS).value());
        }
        assertEquals(1, endpoint.openConnections(), "normal load: one connection");

        congestFirstConnection();
        CompletableFuture<Result> startsTheEpisode = hello("b", 5_000);
        clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(20));
        Result carried = hello("c", 5_000).get(10, TimeUnit.SECONDS);
        assertEquals("hello 1", carried.value(), "sent on the connection opened for it");
        assertEquals(2, endpoint.openConnections());
        List<ConnectionInfo> view = resources.connections();
        assertNotEquals(view.get(0).ioThread(), view.get(1).ioThread(), "the extra has an IO thread of its own");
        try {
            startsTheEpisode.get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            assertEquals(RpcStatus.CONGESTED, ((RpcException) e.getCause()).status());
        }

        proxy.resume();
        clock.addAndGet(TimeUnit.SECONDS.toNanos(29));
        endpoint.pool().checkSize();
        assertEquals(2, endpoint.openConnections(), "idle for 29 s only");
        clock.addAndGet(TimeUnit.SECONDS.toNanos(1));
        endpoint.pool().checkSize();
        assertEquals(1, endpoint.pool().slots().length, "the extra, idle for 30 s, is let go");
        assertEquals("hello 1", hello("d", 5_000).get(10, TimeUnit.SECONDS).value());
    }

    @Test
    void whenNoConnectionBecomesWritableTheCallFailsCongestedNotSentWellWithinItsDeadline() throws Exception {
        open(ClientOptions.builder().maxConnections(1).congestionWait(Duration.ofMillis(100)));
        congestFirstConnection();

        long started = System.nanoTime();
        ExecutionException failed = assertThrows(ExecutionException.class,
                () -> hello("e", 5_000).get(10, TimeUnit.SECONDS));
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        RpcException congested = assertInstanceOf(RpcException.class, failed.getCause());
        assertEquals(RpcStatus.CONGESTED, congested.status(), congested.getMessage());
        assertTrue(congested.isNotExecuted(), "not sent: failover may move it");
        assertTrue(congested.getMessage().contains("no connection became writable within 100 ms"),
                congested.getMessage());
        // the bound is the deadline the call would have waited out: 50 times the 100 ms congestion wait
        assertTrue(tookMillis < 5_000, "failed after " + tookMillis + " ms, at its 5 s deadline");
        assertEquals(1, endpoint.openConnections(), "maxConnections = 1 never grows");

        proxy.resume();
        assertEquals("hello 1", hello("f", 5_000).get(10, TimeUnit.SECONDS).value(), "writable again once read");
    }
}
