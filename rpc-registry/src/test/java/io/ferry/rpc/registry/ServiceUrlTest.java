package io.ferry.rpc.registry;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ServiceUrlTest {
    @Test
    void encodesAsDubboNamesProviderNodes() {
        ServiceUrl url = new ServiceUrl("dubbo", "127.0.0.1", 20880, "demo.MinService",
                Map.of("interface", "demo.MinService", "methods", "a,b"));
        assertEquals("dubbo://127.0.0.1:20880/demo.MinService?interface=demo.MinService&methods=a,b",
                url.toFullString());
        assertEquals("dubbo%3A%2F%2F127.0.0.1%3A20880%2Fdemo.MinService%3Finterface%3Ddemo.MinService%26methods%3Da%2Cb",
                url.encoded());
        assertEquals(url, ServiceUrl.decode(url.encoded()));
    }

    @Test
    void readsACapturedDubboProviderUrl() {
        ServiceUrl url = ServiceUrl.parse("dubbo://192.0.2.2:20990/demo.GreetingService?application=cap-provider"
                + "&deprecated=false&dubbo=2.0.2&dynamic=true&generic=false&interface=demo.GreetingService"
                + "&methods=boom,echo,nul,sayHi&prefer.serialization=fastjson2,hessian2&release=3.2.16"
                + "&service-name-mapping=true&side=provider&timestamp=1795329520845");
        ProviderInstance p = ProviderInstance.from(url);
        assertEquals("192.0.2.2:20990", p.address());
        assertEquals("demo.GreetingService", p.interfaceName());
        assertEquals(Set.of("boom", "echo", "nul", "sayHi"), p.methods());
        assertEquals(100, p.weight());
        assertFalse(p.disabled());
        assertEquals("", p.version());
        assertEquals("cap-provider", p.application());
    }

    @Test
    void aProvidersTokenIsReadAndNeverPrinted() {
        ServiceUrl url = ServiceUrl.parse("dubbo://10.0.0.1:1/x.Y?interface=x.Y&token=s3cr3t&weight=7");
        assertEquals("s3cr3t", ProviderInstance.from(url).token());
        assertTrue(url.toFullString().contains("token=s3cr3t"), "the registry carries it, as Dubbo writes it");
        assertEquals("dubbo://10.0.0.1:1/x.Y?interface=x.Y&token=******&weight=7", url.toString());
        assertFalse(ProviderInstance.from(url).toString().contains("s3cr3t"), ProviderInstance.from(url).toString());
        assertNull(ProviderInstance.from(ServiceUrl.parse("dubbo://10.0.0.1:1/x.Y?token=")).token(),
                "an empty token asks for none, as a Dubbo consumer reads it");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ServiceUrl.parse("dubbo://10.0.0.1:x/x.Y?token=s3cr3t"));
        assertFalse(e.getMessage().contains("s3cr3t"), e.getMessage());
    }

    @Test
    void weightAndDisabledComeFromTheUrl() {
        ProviderInstance p = ProviderInstance.from(ServiceUrl.parse(
                "dubbo://10.0.0.1:1/x.Y?interface=x.Y&weight=7&disabled=true&version=1.0&group=g"));
        assertEquals(7, p.weight());
        assertTrue(p.disabled());
        assertTrue(new ServiceKey("x.Y", "1.0", "g").matches(p.version(), p.group()));
        assertFalse(new ServiceKey("x.Y", "1.0", "").matches(p.version(), p.group()));
        assertTrue(new ServiceKey("x.Y", "1.0", "*").matches(p.version(), p.group()));
        assertTrue(new ServiceKey("x.Y", "0.0.0", "").matches("", ""), "0.0.0 and none are the same version");
    }

    @Test
    void registryAddressesTakeBackups() {
        RegistryOptions options = RegistryOptions.parse("zookeeper://10.0.0.1:2181?backup=10.0.0.2:2182,10.0.0.3:2183")
                .build();
        assertEquals("10.0.0.1:2181,10.0.0.2:2182,10.0.0.3:2183", options.connectString());
        assertEquals("zookeeper://10.0.0.1:2181?backup=10.0.0.2:2182,10.0.0.3:2183", options.address(),
                "the address as it parses");
        assertFalse(options.embedded(), "a server is embedded only where embedded=true asks for one");
        assertFalse(RegistryOptions.parse(RegistryOptions.DEFAULT_ADDRESS).build().embedded());
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> RegistryOptions.parse("etcd://x:1"));
        assertTrue(e.getMessage().startsWith("registry address: etcd://x:1"), e.getMessage());
    }

    @Test
    void otherProtocolsAreNotCallable() {
        assertNull(ProviderInstance.from(ServiceUrl.parse("tri://10.0.0.1:50051/x.Y?interface=x.Y")));
        assertNull(ProviderInstance.from(ServiceUrl.parse("empty://10.0.0.1/x.Y?category=providers")));
    }
}
