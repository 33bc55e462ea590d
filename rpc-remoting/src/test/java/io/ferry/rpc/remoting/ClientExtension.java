package io.ferry.rpc.remoting;

import io.ferry.rpc.ClassAllowList;
import io.ferry.rpc.Deadline;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Ticker;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.lang.reflect.Method;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The consumer side of a remoting test: one {@link Client} per test and the endpoints the test opens with it, all
 * closed after the test. Also builds the invocations of {@link Greeter} the tests send.
 */
final class ClientExtension implements AfterEachCallback {
    private final List<ProviderEndpoint> opened = new ArrayList<>();
    private Client client;
    private int ioThreads = 4;

    /** The IO thread count of the client, if set before its first use. */
    ClientExtension ioThreads(int count) {
        this.ioThreads = count;
        return this;
    }

    synchronized Client client() {
        if (client == null) {
            client = Client.create(ioThreads);
        }
        return client;
    }

    /** An endpoint that is the only provider its calls can go to: calls wait through failed connects. */
    ProviderEndpoint direct(InetSocketAddress address, ClientOptions options) {
        return open(address, options.toBuilder().waitForReady(true).build());
    }

    /** An endpoint among several: a call finding no connection fails at once, not executed. */
    ProviderEndpoint member(InetSocketAddress address, ClientOptions options, Duration connectSpread) {
        return open(address, options, connectSpread);
    }

    private ProviderEndpoint open(InetSocketAddress address, ClientOptions options) {
        return open(address, options, Duration.ZERO);
    }

    private synchronized ProviderEndpoint open(InetSocketAddress address, ClientOptions options, Duration spread) {
        ProviderEndpoint endpoint = client().endpoints(Greeter.class, ClassAllowList.none(), options)
                .open(address, 100, spread);
        opened.add(endpoint);
        return endpoint;
    }

    static Invocation hello(String name, long timeoutMillis) {
        return invocation(method("hello", String.class), timeoutMillis, name);
    }

    static Invocation invocation(Method method, long timeoutMillis, Object... arguments) {
        return new Invocation(Greeter.class.getName(), "", "", method, arguments, new HashMap<>(),
                Deadline.after(Duration.ofMillis(timeoutMillis), Ticker.system()), false, Runnable::run);
    }

    static Method method(String name, Class<?>... parameterTypes) {
        try {
            return Greeter.class.getMethod(name, parameterTypes);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    /** Calls {@code hello(name)} with a 5 s timeout and returns the answer. */
    static Object call(ProviderEndpoint endpoint, String name) throws Exception {
        return endpoint.invoke(hello(name, 5000)).get(10, TimeUnit.SECONDS).value();
    }

    @Override
    public synchronized void afterEach(ExtensionContext context) {
        opened.forEach(ProviderEndpoint::close);
        opened.clear();
        if (client != null) {
            client.close();
            client = null;
        }
    }
}
