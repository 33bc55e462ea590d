package io.ferry.rpc.config.annotated;

import io.ferry.rpc.RpcMethod;
import io.ferry.rpc.RpcService;

@RpcService(version = "2.1", timeoutMillis = 3000)
public interface Inventory {
    int stock(String sku);

    @RpcMethod(timeoutMillis = 100)
    int slowStock(String sku);
}
