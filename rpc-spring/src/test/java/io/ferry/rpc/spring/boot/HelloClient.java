package io.ferry.rpc.spring.boot;

import io.ferry.rpc.RpcReference;

/** A bean given references both ways: a constructor parameter and a field. */
public class HelloClient {
    final Hello byConstructor;
    @RpcReference(version = "1.0", timeoutMillis = 20_000)
    Hello byField;

    public HelloClient(@RpcReference(version = "1.0", timeoutMillis = 20_000) Hello hello) {
        this.byConstructor = hello;
    }
}
