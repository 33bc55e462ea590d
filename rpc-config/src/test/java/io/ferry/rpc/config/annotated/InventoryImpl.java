package io.ferry.rpc.config.annotated;

import io.ferry.rpc.RpcExport;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

@RpcExport
public class InventoryImpl implements Inventory {
    public final CountDownLatch release = new CountDownLatch(1);

    @Override
    public int stock(String sku) {
        return sku.length();
    }

    @Override
    public int slowStock(String sku) {
        try {
            release.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return sku.length();
    }
}
