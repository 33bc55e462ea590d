package io.ferry.rpc.config.internal.files;

import io.ferry.rpc.option.Option;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.option.Scope;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The words of {@code ferry.xml}: its elements, the attributes each takes (the option table's, spelled as Dubbo
 * spells them, plus those that say what is configured), and the Dubbo attributes Ferry refuses, each with why.
 * The XSD ({@link XsdWriter}) and the reader ({@link XmlReader}) are both made from it.
 */
final class XmlVocabulary {
    static final String NAMESPACE = "http://ferry.io/schema/ferry";
    static final String BEANS_NAMESPACE = "http://www.springframework.org/schema/beans";
    /** The shipped schema, generated from this vocabulary; {@code FerrySchemaTest} fails when it is stale. */
    static final String XSD_RESOURCE = "io/ferry/rpc/config/ferry.xsd";

    private XmlVocabulary() {
    }

    /** An attribute that names what is configured rather than setting an option. */
    record Structural(String name, boolean required, String doc) {
    }

    /** An element that holds options of one scope, or (scope null) only its structural attributes. */
    enum Element {
        APPLICATION("application", Scope.APPLICATION, "this process, as it registers itself"),
        REGISTRY("registry", Scope.REGISTRY, "the registry (one per file)",
                new Structural("protocol", false, "the registry's scheme when the address has none: zookeeper, or "
                        + "one a jar registers")),
        PROTOCOL("protocol", Scope.PROTOCOL, "the server services are exported on (one per file)",
                new Structural("name", false, "dubbo (the only protocol Ferry speaks)")),
        SSL("ssl", Scope.SSL, "TLS: certificates, keys and trust of the protocol (server-*) and of the consumer "
                + "(client-*), as Dubbo's <ssl> (one per file); the protocol's and the consumer's ssl-enabled turn it on"),
        PROVIDER("provider", Scope.PROVIDER, "defaults for the protocol and every service of the file"),
        CONSUMER("consumer", Scope.CONSUMER, "defaults for every reference of the file"),
        SERVICE("service", Scope.SERVICE, "a service to export",
                new Structural("interface", true, "the service interface"),
                new Structural("class", false, "the implementation, made with its no-arg constructor"),
                new Structural("ref", false, "the id of an implementation: a bean of the file or one given "
                        + "to Ferry.fromXml")),
        REFERENCE("reference", Scope.REFERENCE, "a reference to create; Ferry.reference(id, type) returns it",
                new Structural("id", true, "the name the reference is got by"),
                new Structural("interface", true, "the service interface")),
        METHOD("method", Scope.METHOD, "settings of one method of a service or reference",
                new Structural("name", true, "the method's name")),
        ANNOTATION("annotation", null, "exports every class annotated @RpcExport in these packages of the class "
                + "path (and their subpackages), each made with its no-arg constructor, as Dubbo's "
                + "<annotation package> exports its @DubboService classes",
                new Structural("package", true, "packages to scan, comma-separated"));

        final String tag;
        final Scope scope;
        final String doc;
        final List<Structural> structural;

        Element(String tag, Scope scope, String doc, Structural... structural) {
            this.tag = tag;
            this.scope = scope;
            this.doc = doc;
            this.structural = List.of(structural);
        }

        /** The options it takes, by attribute name, in the option table's order. */
        Map<String, Option<?>> options() {
            Map<String, Option<?>> byAttribute = new LinkedHashMap<>();
            if (scope == null) {
                return byAttribute; // an element that names what to do rather than setting options
            }
            for (Option<?> option : Options.all()) {
                if (option.scopes().contains(scope)) {
                    byAttribute.put(attributeOf(option), option);
                }
            }
            return byAttribute;
        }

        /** Every attribute name it takes, for "did you mean". */
        List<String> attributeNames() {
            List<String> names = new ArrayList<>();
            structural.forEach(s -> names.add(s.name()));
            names.addAll(options().keySet());
            return names;
        }

        static Element byTag(String tag) {
            for (Element element : values()) {
                if (element.tag.equals(tag)) {
                    return element;
                }
            }
            return null;
        }
    }

    /**
     * The attribute an option is set with. {@code oneway} is Dubbo's {@code return="false"}: the XML keeps Dubbo's
     * attribute, with its meaning inverted.
     */
    static String attributeOf(Option<?> option) {
        return option == Options.ONEWAY ? "return" : option.fileName();
    }

    /**
     * A Dubbo attribute Ferry does not take as an option: why, and what to write instead, so that a refusal never
     * reads as a typo. {@code taken} are the values that ask for exactly what Ferry does anyway: those are taken,
     * with no effect ({@code *}: any value, as an {@code id}).
     *
     * @param attribute its name, as Dubbo spells it
     * @param on        the elements this entry is about; empty: wherever Dubbo has the attribute (an entry for the
     *                  element wins over one for all)
     */
    record Dubbo(String attribute, List<String> on, String reason, List<String> taken) {
        /** Whether {@code value} asks for what Ferry does (case and spaces aside). */
        boolean takes(String value) {
            String v = value.strip();
            return taken.stream().anyMatch(t -> t.equals("*") || t.equalsIgnoreCase(v));
        }

        /** "-1 or 0", for messages. */
        String takenText() {
            return taken.size() == 1 ? taken.get(0) : String.join(", ", taken.subList(0, taken.size() - 1))
                    + " or " + taken.get(taken.size() - 1);
        }

        /**
         * {@code delay="5000": not supported by Ferry: ... (taken, with no effect: -1 or 0)}: what follows the
         * element or where a key was set; {@code name}: the attribute or key as written.
         */
        String refusal(String name, String value) {
            boolean values = !taken.isEmpty() && !taken.contains("*");
            return (values ? name + "=\"" + value + "\"" : name) + ": not supported by Ferry: " + reason
                    + (values ? " (taken, with no effect: " + takenText() + ")" : "");
        }
    }

    /**
     * Dubbo attributes Ferry does not take as options, each with why and what to write instead, and the values it
     * takes with no effect. Attributes Ferry takes (the option table's) are never looked up here.
     */
    static final List<Dubbo> UNSUPPORTED_DUBBO = new ArrayList<>();

    /**
     * The attributes each element has in Dubbo 3.3 (its {@code dubbo.xsd}, and the properties of its config classes
     * that the schema lacks; {@code isdefault}, Dubbo 2's): each is an option of Ferry's, structural, or in
     * {@link #UNSUPPORTED_DUBBO}.
     */
    static final Map<Element, List<String>> DUBBO_ATTRIBUTES = new java.util.EnumMap<>(Element.class);

    private static void refuse(String attribute, String reason, String... taken) {
        UNSUPPORTED_DUBBO.add(new Dubbo(attribute, List.of(), reason, List.of(taken)));
    }

    private static void refuseOn(String elements, String attribute, String reason, String... taken) {
        UNSUPPORTED_DUBBO.add(new Dubbo(attribute, List.of(elements.split(" ")), reason, List.of(taken)));
    }

    /** What Ferry says of a Dubbo attribute of {@code element} that is not an option there, or null. */
    static Dubbo dubbo(Element element, String attribute) {
        Dubbo any = null;
        for (Dubbo d : UNSUPPORTED_DUBBO) {
            if (d.attribute.equals(attribute)) {
                if (element != null && d.on.contains(element.tag)) {
                    return d;
                }
                if (d.on.isEmpty() && any == null) {
                    any = d;
                }
            }
        }
        return any;
    }

    /**
     * The attributes that name another element by its id (Dubbo's {@code registry="zk1"}): taken when they name the
     * file's one such element, by its {@code id} (a protocol also by its name, dubbo, Dubbo's id for it).
     */
    static final List<String> ID_REFERENCES = List.of("registry", "protocol", "provider", "consumer", "application");

    /**
     * Dubbo's values that mean what another value of Ferry's does: {@code port="-1"} (a free port: Ferry's 0) and
     * {@code retries="-1"} (Dubbo's failover calls once: no retries).
     */
    static String dubboValue(Option<?> option, String value) {
        if ((option == Options.PORT || option == Options.RETRIES) && value.strip().equals("-1")) {
            return "0";
        }
        return value;
    }

    /** Dubbo's values {@link #dubboValue} takes for {@code option}, for the schema. */
    static List<String> dubboValues(Option<?> option) {
        return option == Options.PORT || option == Options.RETRIES ? List.of("-1") : List.of();
    }

    /** Dubbo's other spellings of an option of Ferry's: its old misspelling, a case of its own. */
    static final Map<String, String> ALIASES = Map.of("dispather", "dispatcher", "keepalive", "keepAlive");

    static {
        String leaveOut = ": leave it out";
        String noAppDiscovery = "no application-level discovery or metadata service: consumers find providers by "
                + "interface, and what they need in the provider's URL" + leaveOut;
        String oneRegistry = "one registry per file, the default of everything" + leaveOut;
        String noTelnet = "no telnet console: the admin port (qos-enable) answers HTTP" + leaveOut;
        String transport = "Netty 4 is the only transport (Dubbo's netty and netty4)" + leaveOut;
        String shutdown = "Ferry's shutdown waits are the protocol's shutdownGrace and shutdownTimeout (Dubbo's "
                + "shutwait): write them on <protocol>";
        String serialize = "what a provider or consumer deserializes is checked against an allow-list made from the "
                + "interfaces' signatures, always (see Safe deserialization; allowList in code adds classes)"
                + leaveOut;
        String exportTime = "services are exported when the Ferry is built or started, each once its port is bound"
                + leaveOut;
        String referTime = "references are created when the Ferry is built (Dubbo's init=\"true\"); lazy=\"true\" "
                + "connects on the first call" + leaveOut;
        String oneProtocol = "Ferry speaks the dubbo protocol only" + leaveOut;

        refuse("sent", "a one-way call returns once handed to its connection, without waiting for the write (Dubbo's "
                + "sent=\"false\"); a failed write is logged" + leaveOut, "false");
        refuse("listener", "no exporter or invoker listeners: use a Filter, named by filter=\"...\" (a FilterProvider "
                + "on the class path)");
        refuse("proxy", "Ferry makes JDK proxies only, and needs no other" + leaveOut, "jdk");
        // mock and stub are options (Options.MOCK, Options.STUB); local is the name Dubbo deprecated for stub
        refuse("local", "Dubbo's deprecated name for stub: write stub=\"com.acme.XxxLocal\" (local=\"true\" meant "
                + "the interface's name followed by Local)");
        refuse("cache", "no result cache: cache in the caller, or in a Filter (filter=\"...\")", "false");
        refuse("validation", "no JSR-303 validation of arguments: validate in the implementation, or in a Filter "
                + "(filter=\"...\")", "false");
        refuse("delay", "a service is registered once export() has bound its port, and consumers call it only after "
                + "a readiness ping; to export later, call Ferry.export then" + leaveOut, "-1", "0");
        refuse("register", "a service is registered whenever the file has a <registry>: to serve by url only, leave "
                + "the <registry> out", "true");
        refuse("deprecated", "no deprecation marks in the registry" + leaveOut, "false");
        refuse("dynamic", "services stay registered while the provider's session lives (dynamic=\"true\"); no nodes "
                + "for an operator to enable" + leaveOut, "true");
        refuse("sticky", "no sticky calls: loadbalance=\"consistenthash\" keeps equal arguments on one provider",
                "false");
        refuse("injvm", "no in-JVM shortcut, calls go through the protocol (Dubbo's scope=\"remote\"): leave it "
                + "out, or call the implementation directly", "false");
        refuse("scope", "no in-JVM shortcut, calls go through the protocol (Dubbo's scope=\"remote\"): leave it "
                + "out, or call the implementation directly", "remote");
        refuse("callbacks", "no callback arguments: return a CompletableFuture instead");
        refuse("onreturn", "no event methods: use the CompletableFuture a method returns (or "
                + "RpcContext.current().future() after an async=\"true\" call) and its whenComplete");
        refuse("onthrow", "no event methods: use the CompletableFuture a method returns (or "
                + "RpcContext.current().future() after an async=\"true\" call) and its whenComplete");
        refuse("oninvoke", "no event methods: use a Filter, named by filter=\"...\"");
        refuse("merger", "no merging of groups' results: call a reference per group and merge in the caller");
        refuse("tag", "no tag routing: use group=\"...\" to keep consumers on a set of providers");
        refuse("client", transport, "netty", "netty4");
        refuse("server", transport, "netty", "netty4");
        refuse("transporter", transport, "netty", "netty4");
        refuse("codec", oneProtocol, "dubbo");
        refuse("charset", "names are UTF-8 on the wire" + leaveOut, "UTF-8");
        refuse("default", "one registry, protocol, provider and consumer per file, the default of everything"
                + leaveOut, "true");
        refuse("isdefault", "Dubbo's old name for default: one provider, consumer, registry and protocol per "
                + "file, the default of everything" + leaveOut, "true");
        refuse("telnet", noTelnet);
        refuse("id", "one registry and one protocol per file: an id names nothing else", "*");
        refuse("protocol", "one protocol per file, dubbo, which every service and reference uses" + leaveOut);
        refuse("registry", "one registry per file, which every service and reference uses (a reference with "
                + "url=\"...\" none)" + leaveOut);
        refuse("provider", "one <provider> per file, the defaults of every service" + leaveOut);
        refuse("consumer", "one <consumer> per file, the defaults of every reference" + leaveOut);
        refuse("application", "one <application> per file" + leaveOut);
        refuse("simplified", "Ferry's provider URLs carry only what consumers use already" + leaveOut);
        refuse("logger", "Ferry logs through slf4j: leave it out and choose the binding on the class path", "slf4j");
        refuse("compiler", "Ferry generates no code (JDK proxies)" + leaveOut);
        refuse("register-mode", "Ferry registers interfaces, as register-mode=\"interface\"; " + noAppDiscovery,
                "interface");
        refuse("metadata-type", noAppDiscovery);
        refuse("qos-host", "the admin port listens on 127.0.0.1, or on every address with "
                + "qos-accept-foreign-ip=\"true\"" + leaveOut);
        refuse("parameters", "no free-form parameters: every option is an attribute (see the option reference)");
        refuse("monitor", "no monitor center: calls are measured with Micrometer (Observability in code; see "
                + "Operations) and shown by the admin port");
        refuse("module", "no modules: one application per Ferry" + leaveOut);
        refuse("owner", "the owner is the application's: write it on <application>");
        refuse("layer", "no layer metadata in the registry" + leaveOut);
        refuse("onconnect", "no methods run on connection events; connections are counted by Ferry's meters and "
                + "listed by the admin port" + leaveOut);
        refuse("ondisconnect", "no methods run on connection events; connections are counted by Ferry's meters and "
                + "listed by the admin port" + leaveOut);
        refuse("failbacktasks", "failback's queue is Ferry's own: at most 1000 failed calls, each tried again 3 "
                + "times, 5 s apart" + leaveOut);
        refuse("auth", "no access-key signing of calls: a provider checks its callers by token=\"...\", or by "
                + "callers=\"...\" over TLS");
        refuse("singleton", "every service and reference is one object per Ferry" + leaveOut, "true");
        refuse("use-java-package-as-path", "a service is registered under its interface's name, as Dubbo's default "
                + "path" + leaveOut, "false");
        refuse("path", "a service is registered under its interface's name (Dubbo's default path); the dubbo "
                + "protocol has no context path" + leaveOut);
        refuse("contextpath", "the dubbo protocol has no context path" + leaveOut);
        refuse("document", "no documentation URL in the registry" + leaveOut);
        refuse("executor", "no executor bean: a service's own pool is set by threads, threadpool and queues on the "
                + "<service> (executes limits its calls at once)");
        refuse("export", "a service declared is exported: to not export one, leave its <service> out", "true");
        refuse("export-async", exportTime, "false");
        refuse("export-background", exportTime, "false");
        refuse("export-thread-num", exportTime);
        refuse("refer-async", referTime, "false");
        refuse("refer-background", referTime, "false");
        refuse("refer-thread-num", referTime);
        refuse("init", referTime, "true");
        refuse("prefer-serialization", "a consumer asks for the serialization it is set (hessian2, the only one "
                + "Ferry speaks), and a provider answers in the request's: write serialization", "hessian2");
        refuse("buffer", "Ferry's buffers are Netty's pooled ones, sized per frame; payload limits a frame"
                + leaveOut);
        refuse("exchanger", "Dubbo's header exchange is the only one" + leaveOut, "header");
        refuse("networker", "no peer-to-peer groups" + leaveOut);
        refuse("prompt", noTelnet);
        refuse("status", "no telnet status checks: the admin port's /health/live and /health/ready answer probes"
                + leaveOut);
        refuse("threadname", "Ferry names its threads itself (ferry-...)" + leaveOut);
        refuse("wait", shutdown);
        refuse("provided-by", noAppDiscovery);
        refuse("services", noAppDiscovery);
        refuse("provider-namespace", "no service mesh mode" + leaveOut);
        refuse("provider-port", "no service mesh mode" + leaveOut);
        refuse("mesh-enable", "no service mesh mode" + leaveOut, "false");
        refuse("router", "no routers (condition, script or tag rules): keep consumers on a set of providers with "
                + "group and version, or name a cluster or loadbalance a jar registers");
        refuse("reconnect", "Ferry reconnects always, backing off from reconnectBackoffMin to reconnectBackoffMax: "
                + "write those", "true");
        refuse("shareconnections", "every reference shares one elastic pool of connections per provider address "
                + "(up to maxConnections; connections=\"N\" keeps Dubbo's own connections): leave it out, or set "
                + "maxConnections");
        refuse("url-merge-processor", "a consumer's own settings win over the provider URL's, as Dubbo's default "
                + "merge" + leaveOut, "default");
        refuse("unloadClusterRelated", "Ferry keeps a reference's cluster while it lives" + leaveOut, "false");
        refuse("reliable", "Dubbo reads it no more (deprecated)" + leaveOut);
        refuse("stat", "Dubbo reads it no more (deprecated): calls are measured by Ferry's meters" + leaveOut);
        refuse("retry", "Dubbo's deprecated form of retries: write retries=\"0\" for no retries (retry=\"false\")");
        refuse("enable-empty-protection", "a registry that suddenly lists no provider never stops calls to "
                + "providers that still answer (Dubbo's enable-empty-protection=\"true\")" + leaveOut, "true");

        refuseOn("consumer", "threads", "a consumer has no pool to size: a synchronous call's answer is decoded on "
                + "the calling thread, and asynchronous calls complete on Ferry's callback threads (ferry-callback, "
                + "twice the cores, at least 4), never on an IO thread; threads on <protocol> or <provider> size a "
                + "provider's pool" + leaveOut);
        refuseOn("consumer", "threadpool", "a consumer has no pool to size (see threads on <consumer>)" + leaveOut);
        refuseOn("consumer", "corethreads", "a consumer has no pool to size (see threads on <consumer>)"
                + leaveOut);
        refuseOn("consumer", "queues", "a consumer has no pool to size (see threads on <consumer>)" + leaveOut);

        refuseOn("application", "shutwait", shutdown);
        refuseOn("application", "dump-directory", "no thread dumps when a pool is exhausted: the pool's meters "
                + "(ferry.pool.*) and the refusals' log lines show it" + leaveOut);
        refuseOn("application", "dump-enable", "no thread dumps when a pool is exhausted: the pool's meters "
                + "(ferry.pool.*) and the refusals' log lines show it" + leaveOut, "false");
        refuseOn("application", "register-consumer", "a reference's consumer URL is registered, always (Dubbo's "
                + "register-consumer=\"true\")" + leaveOut, "true");
        refuseOn("application", "metadata-service-port", noAppDiscovery);
        refuseOn("application", "metadata-service-protocol", noAppDiscovery);
        refuseOn("application", "only-use-metadata-v2", noAppDiscovery);
        refuseOn("application", "mapping-retry-interval", noAppDiscovery);
        refuseOn("application", "startup-probe", "the admin port (qos-enable) answers Kubernetes' probes at "
                + "/health/live and /health/ready; a startup probe uses /health/ready" + leaveOut);
        refuseOn("application", "liveness-probe", "the admin port (qos-enable) answers Kubernetes' liveness probe "
                + "at /health/live" + leaveOut);
        refuseOn("application", "readiness-probe", "the admin port (qos-enable) answers Kubernetes' readiness probe "
                + "at /health/ready" + leaveOut);
        refuseOn("application", "qos-check", "an admin port that cannot bind fails the start, always (Dubbo's "
                + "qos-check=\"true\")" + leaveOut, "true");
        refuseOn("application", "qos-accept-foreign-ip-whitelist", "the admin port serves this machine only, or "
                + "every address with qos-accept-foreign-ip=\"true\": restrict it with a firewall or network policy");
        refuseOn("application", "qos-anonymous-access-permission-level", "the admin port has no commands by "
                + "permission: it serves what it serves to whoever it listens to (qos-accept-foreign-ip)" + leaveOut);
        refuseOn("application", "qos-anonymous-allow-commands", "the admin port has no commands by permission: it "
                + "serves what it serves to whoever it listens to (qos-accept-foreign-ip)" + leaveOut);
        refuseOn("application", "executor-management-mode", "Ferry's threads are one IO group and a business pool "
                + "per protocol (or per service with threads on the <service>)" + leaveOut);
        refuseOn("application", "repository", "the registry's cache file is <registry file=\"...\">: write that");
        refuseOn("application", "enable-file-cache", "the registry's cache file is <registry file=\"...\"> "
                + "(file=\"none\" keeps none): write that", "true");
        for (String serialization : List.of("auto-trust-serialize-class", "check-serializable",
                "serialize-check-status", "trust-serialize-class-level")) {
            refuseOn("application", serialization, serialize);
        }

        refuseOn("registry", "group", "the ZooKeeper root is /dubbo, Dubbo's default group; another root is set in "
                + "code (RegistryOptions), and a separate set of providers by group on the services", "dubbo");
        refuseOn("registry", "client", "Ferry's ZooKeeper registry uses Curator (Dubbo's curator and curator5)"
                + leaveOut, "curator", "curator5");
        refuseOn("registry", "transporter", "Ferry's ZooKeeper registry uses Curator (Dubbo's curator and "
                + "curator5)" + leaveOut, "curator", "curator5");
        refuseOn("registry", "transport", "Ferry's ZooKeeper registry uses Curator (Dubbo's curator and curator5)"
                + leaveOut, "curator", "curator5");
        refuseOn("registry", "server", "Ferry connects to a ZooKeeper, and hosts none but the embedded one "
                + "(address=\"zookeeper://127.0.0.1:2181?embedded=true\")" + leaveOut);
        refuseOn("registry", "accepts", "Ferry connects to a ZooKeeper, and hosts none but the embedded one"
                + leaveOut);
        refuseOn("registry", "port", "the port is the address's: write address=\"zookeeper://host:port\"");
        refuseOn("registry", "subscribe", "a reference always subscribes to its providers, and a process without "
                + "references subscribes to nothing" + leaveOut, "true");
        refuseOn("registry", "register", "a process with a <registry> registers its services; to serve by url only, "
                + "leave the <registry> out", "true");
        refuseOn("registry", "zone", oneRegistry);
        refuseOn("registry", "preferred", oneRegistry, "true");
        refuseOn("registry", "weight", oneRegistry);
        refuseOn("registry", "cluster", oneRegistry);
        refuseOn("registry", "forks", oneRegistry);
        refuseOn("registry", "use-as-config-center", "no config center: use ferry.properties or -D", "false");
        refuseOn("registry", "use-as-metadata-center", noAppDiscovery, "false");
        refuseOn("registry", "extra-keys", "Ferry's provider URLs are not simplified: consumers get every key they "
                + "use" + leaveOut);
        refuseOn("registry", "secure", "a secured ZooKeeper is zookeeperTls (with its certificate paths), username "
                + "and password: write those");
        refuseOn("registry", "version", oneRegistry);
        refuseOn("registry", "wait", shutdown);

        refuseOn("protocol", "ext-protocol", oneProtocol);
        refuseOn("protocol", "extension", oneProtocol);
        refuseOn("protocol", "preferred-protocol", oneProtocol, "dubbo");
        refuseOn("protocol", "json-check-level", oneProtocol);
        refuseOn("protocol", "no-interface-support", oneProtocol);
        refuseOn("protocol", "optimizer", "no serialization optimizer: hessian2 writes the classes as they are"
                + leaveOut);
        refuseOn("protocol", "thread-pool-exhausted-listeners", "a request the pool refuses is counted (the "
                + "ferry.pool.* meters) and logged" + leaveOut);

        refuseOn("ssl", "ca-address", "no certificate authority client: give the certificate and key files "
                + "(server-key-cert-chain-path, ...); ssl-reload-interval picks up renewed ones");
        refuseOn("ssl", "ca-cert-path", "no certificate authority client: give the certificate and key files "
                + "(server-key-cert-chain-path, ...)");
        refuseOn("ssl", "env-type", "no certificate authority client: give the certificate and key files "
                + "(server-key-cert-chain-path, ...)");
        refuseOn("ssl", "oidc-token-path", "no certificate authority client: give the certificate and key files "
                + "(server-key-cert-chain-path, ...)");

        dubboAttributes(Element.SSL, """
                ca-address ca-cert-path client-key-cert-chain-path client-key-password client-private-key-path
                client-trust-cert-collection-path env-type id oidc-token-path server-key-cert-chain-path
                server-key-password server-private-key-path server-trust-cert-collection-path""");
        dubboAttributes(Element.ANNOTATION, "id package");
        dubboAttributes(Element.APPLICATION, """
                architecture auto-trust-serialize-class check-serializable compiler default dump-directory
                dump-enable enable-empty-protection enable-file-cache environment executor-management-mode id
                liveness-probe logger mapping-retry-interval metadata-service-port metadata-service-protocol
                metadata-type monitor name only-use-metadata-v2 organization owner parameters protocol
                qos-accept-foreign-ip qos-accept-foreign-ip-whitelist qos-anonymous-access-permission-level
                qos-anonymous-allow-commands qos-check qos-enable qos-host qos-port readiness-probe
                register-consumer register-mode registry repository serialize-check-status shutwait startup-probe
                trust-serialize-class-level version""");
        dubboAttributes(Element.REGISTRY, """
                accepts address check client cluster default dynamic enable-empty-protection extra-keys file forks
                group id parameters password port preferred protocol register register-mode secure server session
                simplified subscribe timeout transport transporter use-as-config-center use-as-metadata-center
                username version wait weight zone""");
        dubboAttributes(Element.PROVIDER, """
                accepts accesslog actives alive application async auth buffer cache callbacks charset client cluster
                codec connections contextpath default delay deprecated dispatcher dispather document dynamic
                exchanger executes executor export export-async export-background export-thread-num failbacktasks
                filter forks group host id iothreads isdefault layer listener loadbalance local merger mock module
                monitor networker onconnect ondisconnect owner parameters path payload port prefer-serialization
                prompt protocol proxy queues register registry retries scope sent serialization server singleton
                status stub tag telnet threadname threadpool threads timeout token transporter
                use-java-package-as-path validation version wait warmup weight""");
        dubboAttributes(Element.CONSUMER, """
                actives application async auth cache callbacks check client cluster connections corethreads default
                failbacktasks filter forks generic group id init injvm layer lazy listener loadbalance local merger
                mesh-enable mock module monitor onconnect ondisconnect owner parameters provided-by
                provider-namespace provider-port proxy queues reconnect refer-async refer-background
                refer-thread-num registry retries router scope sent shareconnections singleton sticky stub tag
                threadpool threads timeout url-merge-processor validation version""");
        dubboAttributes(Element.PROTOCOL, """
                accepts accesslog alive buffer charset client codec contextpath corethreads default dispatcher
                dispather exchanger ext-protocol extension heartbeat host id iothreads json-check-level keepalive
                name networker no-interface-support optimizer parameters path payload port prefer-serialization
                preferred-protocol prompt queues register serialization server ssl-enabled status telnet
                thread-pool-exhausted-listeners threadname threadpool threads transporter""");
        dubboAttributes(Element.SERVICE, """
                accesslog actives application async auth cache callbacks class cluster connections delay deprecated
                document dynamic executes executor export export-async failbacktasks filter forks generic group id
                interface isdefault layer listener loadbalance local merger mock module monitor onconnect
                ondisconnect owner parameters path payload prefer-serialization protocol provider proxy ref register
                registry retries scope sent serialization singleton stub tag timeout token use-java-package-as-path
                validation version warmup weight""");
        dubboAttributes(Element.REFERENCE, """
                actives application async auth cache callbacks check client cluster connections consumer
                failbacktasks filter forks generic group id init injvm interface layer lazy listener loadbalance
                local merger mock module monitor onconnect ondisconnect owner parameters protocol provided-by
                provider-namespace provider-port proxy reconnect refer-async registry retries router scope sent
                services singleton sticky stub tag timeout unloadClusterRelated url validation version""");
        dubboAttributes(Element.METHOD, """
                actives async cache deprecated executes failbacktasks loadbalance merger mock name oninvoke onreturn
                onthrow parameters reliable retries retry return sent stat sticky timeout validation""");
    }

    private static void dubboAttributes(Element element, String names) {
        DUBBO_ATTRIBUTES.put(element, List.of(names.strip().split("\\s+")));
    }

    /**
     * The Dubbo attributes of {@code element} that the reader takes without them being options: those it takes
     * with no effect for some value, an {@code id}, and the ids of other elements; the schema declares them.
     */
    static List<String> dubboTaken(Element element) {
        List<String> names = new ArrayList<>();
        for (String name : DUBBO_ATTRIBUTES.getOrDefault(element, List.of())) {
            if (element.attributeNames().contains(name) || ALIASES.containsKey(name)) {
                continue;
            }
            Dubbo d = dubbo(element, name);
            if (d != null && (!d.taken().isEmpty() || ID_REFERENCES.contains(name))) {
                names.add(name);
            }
        }
        return names;
    }

    /** Elements Dubbo has that Ferry refuses, each with why and what to write instead. */
    static final Map<String, String> UNSUPPORTED_ELEMENTS = Map.of(
            "argument", "no callback arguments: return a CompletableFuture instead",
            "parameter", "no free-form parameters: every option is an attribute (see the option reference)",
            "module", "no module metadata in the registry: put owner and organization on <application>, or leave "
                    + "it out",
            "monitor", "no monitor center: calls are measured with Micrometer (Observability in code; see "
                    + "Operations) and shown by the admin port",
            "config-center", "no config center: use ferry.properties or -D",
            "metadata-report", "no metadata center: consumers find what they need in the provider's URL; leave it "
                    + "out",
            "metrics", "metrics are Micrometer's: write <application metrics=\"prometheus\" "
                    + "qos-enable=\"true\"/> for a Prometheus registry of Ferry's own at the admin port's /metrics, "
                    + "or give Ferry a MeterRegistry in code (Observability.meters; see Operations)",
            "triple", "Ferry speaks the dubbo protocol only: leave it out",
            "tracing", "traces come from Micrometer's Observation API: give Ferry an ObservationRegistry in code "
                    + "(Observability.observations; see Operations)");

    /** The README's list of what a Dubbo file may hold that Ferry refuses, with why. */
    static String unsupportedMarkdown() {
        StringBuilder md = new StringBuilder();
        UNSUPPORTED_DUBBO.forEach(d -> {
            md.append("- `").append(d.attribute()).append('`');
            if (!d.on().isEmpty()) {
                md.append(" on ").append(String.join(", ", d.on().stream().map(e -> "`<" + e + ">`").toList()));
            }
            md.append(": ").append(d.reason());
            if (ID_REFERENCES.contains(d.attribute()) && d.on().isEmpty()) {
                md.append(" (taken, with no effect, when it names the file's <").append(d.attribute())
                        .append("> by its id").append(d.attribute().equals("protocol") ? ", or dubbo" : "")
                        .append(')');
            } else if (d.taken().contains("*")) {
                md.append(" (taken, with no effect)");
            } else if (!d.taken().isEmpty()) {
                md.append(" (taken, with no effect: ").append(d.takenText()).append(')');
            }
            md.append('\n');
        });
        new java.util.TreeMap<>(UNSUPPORTED_ELEMENTS).forEach((element, reason) ->
                md.append("- `<").append(element).append(">`: ").append(reason).append('\n'));
        return md.toString();
    }
}
