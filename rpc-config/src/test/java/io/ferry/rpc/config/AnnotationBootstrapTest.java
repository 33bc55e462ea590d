package io.ferry.rpc.config;

import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcReference;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.config.annotated.Inventory;
import io.ferry.rpc.config.annotated.InventoryImpl;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Exporting an @RpcExport class and injecting @RpcReference fields, with the interface's defaults. */
class AnnotationBootstrapTest {
    static class Shop {
        @RpcReference
        Inventory inventory;

        @RpcReference(version = "9.0")
        Inventory otherVersion;
    }

    @Test
    void exportsByAnnotationAndInjectsReferencesWithTheInterfacesVersionAndTimeouts() {
        InventoryImpl impl = new InventoryImpl();
        try (Ferry provider = Ferry.builder().protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build())
                .build();
             Ferry consumer = Ferry.builder().build()) {
            int port = provider.export(impl);
            Shop shop = new Shop();
            consumer.inject(shop, "dubbo://127.0.0.1:" + port);

            assertEquals(5, shop.inventory.stock("apple"), "version 2.1 from @RpcService on both sides");
            RpcException timeout = assertThrows(RpcException.class, () -> shop.inventory.slowStock("pear"));
            assertEquals(RpcStatus.TIMEOUT, timeout.status(), "@RpcMethod(timeoutMillis = 100) applies");
            RpcException missing = assertThrows(RpcException.class, () -> shop.otherVersion.stock("fig"));
            assertEquals(RpcStatus.SERVICE_NOT_FOUND, missing.status());
            impl.release.countDown();
        } finally {
            impl.release.countDown();
        }
    }

    @Test
    void exportRequiresTheAnnotation() {
        try (Ferry provider = Ferry.builder().build()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> provider.export(new Object()));
            assertEquals("implementation: java.lang.Object (expected: a class annotated @RpcExport)", e.getMessage());
        }
    }
}
