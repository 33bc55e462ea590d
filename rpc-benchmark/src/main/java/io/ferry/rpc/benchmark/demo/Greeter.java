package io.ferry.rpc.benchmark.demo;

import io.ferry.rpc.RpcMethod;
import io.ferry.rpc.RpcService;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/** The demo's service interface: what an application team would write. */
@RpcService(timeoutMillis = 2000)
public interface Greeter {
    String greet(String name);

    List<Greeting> greetAll(List<String> names);

    CompletableFuture<String> greetLater(String name);

    @RpcMethod(oneway = true)
    void log(String line);

    Greeting strict(String name) throws UnknownNameException;

    record Greeting(String name, String text, long at) implements java.io.Serializable {
    }

    class UnknownNameException extends Exception {
        private static final long serialVersionUID = 1L;

        public UnknownNameException(String message) {
            super(message);
        }
    }
}
