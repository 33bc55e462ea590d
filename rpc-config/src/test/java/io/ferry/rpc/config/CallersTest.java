package io.ferry.rpc.config;

import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.config.fixtures.FerryFixture;
import io.ferry.rpc.remoting.ClientAuth;
import io.ferry.rpc.testkit.TestPki;
import io.ferry.rpc.testkit.TestPki.KeyPairFiles;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Who may call what: a service and one of its methods naming their callers by certificate identity, callers over
 * mutual TLS on real sockets, and what the others are told (FORBIDDEN, nothing run).
 */
class CallersTest {
    /** A service with an everyday method and a dangerous one. */
    public interface Ledger {
        String read();

        String erase();
    }

    /** Counts what ran. */
    public static class CountingLedger implements Ledger {
        final AtomicInteger reads = new AtomicInteger();
        final AtomicInteger erasures = new AtomicInteger();

        @Override
        public String read() {
            reads.incrementAndGet();
            return "balance";
        }

        @Override
        public String erase() {
            erasures.incrementAndGet();
            return "erased";
        }
    }

    /** A ledger whose interface names who may erase: every export of it keeps that rule unless it names its own. */
    public interface GuardedLedger {
        String read();

        @io.ferry.rpc.RpcMethod(callers = "cn:admin")
        String erase();
    }

    /** The same service restricted by its annotation alone, under another version. */
    @io.ferry.rpc.RpcExport(value = Ledger.class, version = "admin", callers = "cn:admin")
    public static final class AnnotatedLedger extends CountingLedger {
    }

    @RegisterExtension
    final FerryFixture ferries = new FerryFixture();
    private Ferry serving;
    private TestPki pki;
    private final CountingLedger ledger = new CountingLedger();
    private int port;

    @BeforeEach
    void provider() {
        pki = TestPki.create(ferries.dir(), "ferry");
        KeyPairFiles provider = pki.server("provider");
        serving = ferries.track(Ferry.builder()
                .ssl(SslConfig.builder().serverKeyCertChain(provider.certificateChain().toString(),
                        provider.privateKey().toString()).serverTrustCertCollection(pki.caCertificate().toString())
                        .clientAuth(ClientAuth.OPTIONAL).build())
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).sslEnabled(true).build()).build());
        port = serving.export(ServiceConfig.builder(Ledger.class, (Ledger) ledger)
                .accessLog(accessLog().toString())
                .callers("cn:orders, uri:spiffe://ferry.test/admin")
                .method(MethodConfig.builder("erase").callers("uri:spiffe://ferry.test/admin").build())
                .build());
    }

    private Path accessLog() {
        return ferries.dir().resolve("access.log");
    }

    @Test
    void theAccessLogNamesTheCallersCommonNameAndTheCallsTheChecksRefused() throws Exception {
        Ledger orders = as("orders");
        orders.read();
        refused(orders::erase);
        serving.close(); // writes every line still queued

        List<String> lines = Files.readAllLines(accessLog());
        assertEquals(2, lines.size(), lines.toString());
        assertTrue(lines.get(0).contains(" cn=\"orders\" service=" + Ledger.class.getName() + " method=read"
                + " status=OK "), lines.get(0));
        assertTrue(lines.get(1).contains(" cn=\"orders\" service=" + Ledger.class.getName() + " method=erase"
                + " status=FORBIDDEN "), lines.get(1));
    }

    @Test
    void anAnnotationNamesTheCallersAsAFileWould() {
        AnnotatedLedger annotated = new AnnotatedLedger();
        serving.export(annotated);
        Ledger orders = as("orders", "admin");
        RpcException e = refused(orders::read);
        assertTrue(e.getMessage().contains("CN=orders"), e.getMessage());
        assertEquals("balance", as("admin", "admin").read());
        assertEquals(1, annotated.reads.get());
    }

    @Test
    void aMethodsAnnotationNamesItsCallersWhereverTheInterfaceIsExported() {
        AtomicInteger erasures = new AtomicInteger();
        serving.export(ServiceConfig.builder(GuardedLedger.class, new GuardedLedger() {
            @Override
            public String read() {
                return "balance";
            }

            @Override
            public String erase() {
                erasures.incrementAndGet();
                return "erased";
            }
        }).build());
        GuardedLedger orders = guarded("orders");
        assertEquals("balance", orders.read(), "the service names no callers: anyone with a certificate");
        RpcException e = refused(orders::erase);
        assertTrue(e.getMessage().contains(GuardedLedger.class.getName() + ".erase() may not be called by"),
                e.getMessage());
        assertEquals("erased", guarded("admin").erase());
        assertEquals(1, erasures.get(), "only the admin's call ran");
    }

    private GuardedLedger guarded(String name) {
        KeyPairFiles pair = pki.client(name);
        Ferry calling = ferries.track(Ferry.builder().ssl(SslConfig.builder()
                .clientTrustCertCollection(pki.caCertificate().toString())
                .clientKeyCertChain(pair.certificateChain().toString(), pair.privateKey().toString()).build())
                .build());
        return calling.reference(ReferenceConfig.builder(GuardedLedger.class).url("dubbo://127.0.0.1:" + port)
                .sslEnabled(true).retries(0).build());
    }

    private Ledger as(String name) {
        return as(name, "");
    }

    private Ledger as(String name, String version) {
        SslConfig.Builder ssl = SslConfig.builder().clientTrustCertCollection(pki.caCertificate().toString());
        if (name != null) {
            KeyPairFiles pair = pki.client(name);
            ssl.clientKeyCertChain(pair.certificateChain().toString(), pair.privateKey().toString());
        }
        Ferry calling = ferries.track(Ferry.builder().ssl(ssl.build()).build());
        return calling.reference(ReferenceConfig.builder(Ledger.class).url("dubbo://127.0.0.1:" + port)
                .version(version).sslEnabled(true).retries(0).build());
    }

    private static RpcException refused(Runnable call) {
        RpcException e = assertThrows(RpcException.class, call::run);
        assertEquals(RpcStatus.FORBIDDEN, e.status(), e.toString());
        assertTrue(e.isNotExecuted(), e.toString());
        return e;
    }

    @Test
    void aNamedCallerCallsTheServiceButNotAMethodThatNamesOthers() {
        Ledger orders = as("orders");
        assertEquals("balance", orders.read());
        RpcException e = refused(orders::erase);
        assertTrue(e.getMessage().contains(Ledger.class.getName() + ".erase() may not be called by"), e.getMessage());
        assertTrue(e.getMessage().contains("CN=orders"), e.getMessage());
        assertEquals(0, ledger.erasures.get(), "a refused call runs nothing");
    }

    @Test
    void theMethodsOwnCallerCallsIt() {
        assertEquals("erased", as("admin").erase());
        assertEquals(1, ledger.erasures.get());
    }

    @Test
    void aCallerWithACertificateOfAnotherNameIsRefused() {
        refused(as("billing")::read);
        assertEquals(0, ledger.reads.get());
    }

    @Test
    void aCallerWithoutACertificateIsRefusedWhateverItClaimsToBe() {
        io.ferry.rpc.RpcContext.current().setAttachment("remote.application", "orders");
        RpcException e = refused(as(null)::read);
        assertTrue(e.getMessage().contains("without a client certificate"), e.getMessage());
        assertEquals(0, ledger.reads.get());
    }

    @Test
    void callersOnAProtocolWithoutClientCertificatesFailAtExport() {
        Ferry plain = ferries.track(Ferry.builder()
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build()).build());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> plain.export(
                ServiceConfig.builder(Ledger.class, (Ledger) new CountingLedger()).callers("cn:orders").build()));
        assertTrue(e.getMessage().contains("callers: set for " + Ledger.class.getName()), e.getMessage());
    }
}
