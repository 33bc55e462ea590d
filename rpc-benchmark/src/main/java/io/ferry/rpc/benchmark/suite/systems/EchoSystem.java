package io.ferry.rpc.benchmark.suite.systems;

import io.ferry.rpc.benchmark.suite.workload.User;
import io.ferry.rpc.benchmark.suite.workload.UserPage;
import io.ferry.rpc.benchmark.suite.workload.UserService;
import io.ferry.rpc.benchmark.suite.workload.Users;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;

import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The ceiling: raw Netty moving exactly the bytes Ferry moves for each method ({@link FrameSizes}), with no
 * serialization, no service lookup and no thread hop. A request is {@code [length][id][answer size][padding]}; the
 * provider answers {@code [length][id][padding]} of the asked size from its event loop, flushing once per read
 * batch. Callers share one connection and wait on a future per call, as RPC callers do.
 */
public final class EchoSystem {
    private static final boolean EPOLL = Epoll.isAvailable();
    private static final int MAX_FRAME = 16 * 1024 * 1024;

    private EchoSystem() {
    }

    static EventLoopGroup group(int threads) {
        return new MultiThreadIoEventLoopGroup(threads, EPOLL ? EpollIoHandler.newFactory()
                : NioIoHandler.newFactory());
    }

    public static Provider provider(String system, String host, int port, Tuning tuning) {
        EventLoopGroup group = group(tuning.ioThreads() > 0 ? tuning.ioThreads() : 0);
        Channel server = new ServerBootstrap().group(group)
                .channel(EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                .childOption(ChannelOption.TCP_NODELAY, tuning.tcpNoDelay() == null || tuning.tcpNoDelay())
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new LengthFieldBasedFrameDecoder(MAX_FRAME, 0, 4, 0, 4),
                                new Answerer(tuning.splitAnswers()));
                    }
                }).bind(host, port).syncUninterruptibly().channel();
        int bound = ((InetSocketAddress) server.localAddress()).getPort();
        return Provider.of(bound, () -> {
            server.close().syncUninterruptibly();
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        });
    }

    /**
     * Answers each request with a frame of the size it asks for, flushing once per read batch; or, split, its
     * header and its body in two writes and two flushes, which is what meets Nagle and delayed ACK.
     */
    private static final class Answerer extends SimpleChannelInboundHandler<ByteBuf> {
        private final boolean split;

        Answerer(boolean split) {
            this.split = split;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, ByteBuf request) {
            long id = request.readLong();
            int size = request.readInt();
            if (split) {
                ctx.writeAndFlush(ctx.alloc().ioBuffer(12).writeInt(size - 4).writeLong(id), ctx.voidPromise());
                ctx.writeAndFlush(ctx.alloc().ioBuffer(size - 12).writeZero(size - 12), ctx.voidPromise());
                return;
            }
            ByteBuf answer = ctx.alloc().ioBuffer(size);
            answer.writeInt(size - 4).writeLong(id).writeZero(size - 12);
            ctx.write(answer, ctx.voidPromise());
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }

    public static Consumer consumer(String system, String host, int port, Tuning tuning) {
        Map<String, FrameSizes.Size> sizes = FrameSizes.measure();
        EchoClient client = new EchoClient(host, port, tuning);
        UserService service = new EchoUsers(client, sizes);
        return Consumer.of(service, client::close);
    }

    /** One connection; calls wait on a future found again by the answer's id. */
    public static final class EchoClient implements AutoCloseable {
        private final EventLoopGroup group;
        private final Channel channel;
        private final Map<Long, CompletableFuture<Void>> pending = new ConcurrentHashMap<>();
        private final AtomicLong ids = new AtomicLong();

        public EchoClient(String host, int port, Tuning tuning) {
            group = group(tuning.ioThreads() > 0 ? tuning.ioThreads() : 1);
            channel = new Bootstrap().group(group).channel(EPOLL ? EpollSocketChannel.class : NioSocketChannel.class)
                    .option(ChannelOption.TCP_NODELAY, tuning.tcpNoDelay() == null || tuning.tcpNoDelay())
                    .handler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new LengthFieldBasedFrameDecoder(MAX_FRAME, 0, 4, 0, 4),
                                    new SimpleChannelInboundHandler<ByteBuf>() {
                                        @Override
                                        protected void channelRead0(ChannelHandlerContext ctx, ByteBuf answer) {
                                            CompletableFuture<Void> call = pending.remove(answer.readLong());
                                            if (call != null) {
                                                call.complete(null);
                                            }
                                        }

                                        @Override
                                        public void channelReadComplete(ChannelHandlerContext ctx) {
                                            ctx.flush(); // requests written from the event loop while reading
                                        }
                                    });
                        }
                    }).connect(host, port).syncUninterruptibly().channel();
        }

        /**
     * Sends a request of {@code requestSize} bytes asking for {@code answerSize}; completes on the answer. From the
     * event loop the request is written and flushed with the read batch; from another thread, flushed at once.
     */
        public CompletableFuture<Void> call(int requestSize, int answerSize) {
            long id = ids.incrementAndGet();
            CompletableFuture<Void> call = new CompletableFuture<>();
            pending.put(id, call);
            ByteBuf request = channel.alloc().ioBuffer(requestSize);
            request.writeInt(requestSize - 4).writeLong(id).writeInt(answerSize).writeZero(requestSize - 16);
            if (channel.eventLoop().inEventLoop()) {
                channel.write(request, channel.voidPromise());
            } else {
                channel.writeAndFlush(request, channel.voidPromise());
            }
            return call;
        }

        public Channel channel() {
            return channel;
        }

        @Override
        public void close() {
            channel.close().syncUninterruptibly();
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    /** The workload over the echo: each method moves its Ferry byte counts and returns a prepared value. */
    private static final class EchoUsers implements UserService {
        private final EchoClient client;
        private final Map<String, FrameSizes.Size> sizes;
        private final User user = Users.user(1);
        private final UserPage page = Users.page(1);

        EchoUsers(EchoClient client, Map<String, FrameSizes.Size> sizes) {
            this.client = client;
            this.sizes = sizes;
        }

        private CompletableFuture<Void> send(String method) {
            FrameSizes.Size size = sizes.get(method);
            return client.call(Math.max(16, size.request()), Math.max(12, size.response()));
        }

        private static void await(CompletableFuture<Void> call) {
            try {
                call.get(FerrySystem.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } catch (ExecutionException | TimeoutException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public boolean existUser(String email) {
            await(send("existUser"));
            return true;
        }

        @Override
        public boolean createUser(User u) {
            await(send("createUser"));
            return true;
        }

        @Override
        public User getUser(long id) {
            await(send("getUser"));
            return user;
        }

        @Override
        public UserPage listUser(int pageNo) {
            await(send("listUser"));
            return page;
        }

        @Override
        public CompletableFuture<User> getUserAsync(long id) {
            return send("getUser").thenApply(v -> user);
        }
    }
}
