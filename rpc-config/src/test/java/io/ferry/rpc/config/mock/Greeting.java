package io.ferry.rpc.config.mock;

import io.ferry.rpc.RpcMethod;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/** The service of the mock and stub tests: sync, async and one-way methods, a business exception, a slow call. */
public interface Greeting {
    String greet(String name);

    int count();

    List<String> names();

    CompletableFuture<String> greetLater(String name);

    @RpcMethod(oneway = true)
    void note(String text);

    /** Throws the service's own (declared) exception. */
    String refuse(String why) throws GreetingRefused;

    /** Fails its future with the service's own exception. */
    CompletableFuture<String> refuseLater(String why);

    /** Answers once the test releases it: a call that meets its timeout. */
    String hang(String tag);

    /** Completes once the test releases it. */
    CompletableFuture<String> hangLater(String tag);
}
