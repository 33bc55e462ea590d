package io.ferry.rpc.spring.boot.scanned;

import io.ferry.rpc.RpcExport;
import io.ferry.rpc.spring.boot.Hello;

/** Exported by {@code ferry.scan.base-packages} alone: no {@code @Component}. */
@RpcExport
public class ScannedHello implements Hello {
    @Override
    public String hello(String name) {
        return "Scanned " + name;
    }

    @Override
    public String slow(String name) {
        return hello(name);
    }
}
