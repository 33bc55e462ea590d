package io.ferry.rpc.config;

import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcReference;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.config.annotated.Inventory;
import io.ferry.rpc.config.annotated.InventoryImpl;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    static class Misspelt {
        @RpcReference(check = "yes")
        Inventory inventory;
    }

    @io.ferry.rpc.RpcExport(value = Inventory.class, retries = 101)
    static class TooManyRetries extends InventoryImpl {
    }

    static class Identified {
        @RpcReference(id = "inv", retries = 1)
        Inventory inventory;
    }

    @Test
    void aWrongValueIsNamedByItsAnnotationElementAndWhereItSits() throws Exception {
        RpcReference check = Misspelt.class.getDeclaredField("inventory").getAnnotation(RpcReference.class);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ReferenceConfig.fromAnnotation(check, Inventory.class, "Misspelt.inventory"));
        assertEquals("@RpcReference(check) on Misspelt.inventory: 'yes' (expected: \"true\", \"false\", or \"\" to "
                + "keep the consumer's)", e.getMessage());
        IllegalArgumentException retries = assertThrows(IllegalArgumentException.class,
                () -> ServiceConfig.fromAnnotation(TooManyRetries.class, new TooManyRetries()).build());
        assertTrue(retries.getMessage().startsWith("@RpcExport(retries) on " + TooManyRetries.class.getName()
                + ": retries: 101"), retries.getMessage());
    }

    @Test
    void anIdLetsKeysSetTheReferencesOptionsAndMethodsOverTheAnnotation() throws Exception {
        java.util.Properties system = new java.util.Properties();
        system.setProperty("ferry.reference.inv.retries", "3");
        system.setProperty("ferry.reference.inv.method.stock.timeout", "4321");
        RpcReference annotation = Identified.class.getDeclaredField("inventory").getAnnotation(RpcReference.class);
        try (Ferry consumer = Ferry.builder().shutdownHook(false)
                .sources(io.ferry.rpc.config.internal.files.Sources.of(system, null)).build()) {
            io.ferry.rpc.config.option.Resolved settings = consumer.settingsOf(ReferenceConfig.fromAnnotation(
                    annotation, Inventory.class, "Identified.inventory").build());
            assertEquals(3, settings.get(io.ferry.rpc.config.option.Options.RETRIES), "the key over the annotation");
            assertEquals(java.time.Duration.ofMillis(4321), settings.get(io.ferry.rpc.config.option.Options.TIMEOUT,
                    Inventory.class.getMethod("stock", String.class)), "a method's key");
            assertEquals(java.time.Duration.ofMillis(100), settings.get(io.ferry.rpc.config.option.Options.TIMEOUT,
                    Inventory.class.getMethod("slowStock", String.class)), "@RpcMethod elsewhere");
        }
    }
}
