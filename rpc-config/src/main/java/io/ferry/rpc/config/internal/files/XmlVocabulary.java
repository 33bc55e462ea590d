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
     * Dubbo attributes Ferry does not take, each with why and what to write instead: a refusal must never read as a
     * typo. Attributes Ferry takes (the option table's) are never looked up here.
     */
    static final Map<String, String> UNSUPPORTED_DUBBO = new LinkedHashMap<>();

    static {
        UNSUPPORTED_DUBBO.put("sent", "a call counts as sent once its frame is written, always (Dubbo's "
                + "sent=\"true\"): leave it out");
        UNSUPPORTED_DUBBO.put("listener", "no exporter or invoker listeners: use a Filter, named by filter=\"...\" "
                + "(a FilterProvider on the class path)");
        UNSUPPORTED_DUBBO.put("proxy", "Ferry makes JDK proxies only, and needs no other: leave it out");
        // mock and stub are options (Options.MOCK, Options.STUB); local is the name Dubbo deprecated for stub
        UNSUPPORTED_DUBBO.put("local", "Dubbo's deprecated name for stub: write stub=\"com.acme.XxxLocal\" "
                + "(local=\"true\" meant the interface's name followed by Local)");
        UNSUPPORTED_DUBBO.put("cache", "no result cache: cache in the caller, or in a Filter (filter=\"...\")");
        UNSUPPORTED_DUBBO.put("validation", "no JSR-303 validation of arguments: validate in the implementation, or "
                + "in a Filter (filter=\"...\")");
        UNSUPPORTED_DUBBO.put("delay", "a service is registered once export() has bound its port, and consumers "
                + "call it only after a readiness ping: leave it out (to export later, call Ferry.export then)");
        UNSUPPORTED_DUBBO.put("register", "a service is registered whenever the file has a <registry>: to serve by "
                + "url only, leave the <registry> out");
        UNSUPPORTED_DUBBO.put("deprecated", "no deprecation marks in the registry: leave it out");
        UNSUPPORTED_DUBBO.put("dynamic", "services stay registered while the provider's session lives "
                + "(dynamic=\"true\"); no nodes for an operator to enable: leave it out");
        UNSUPPORTED_DUBBO.put("sticky", "no sticky calls: loadbalance=\"consistenthash\" keeps equal arguments on "
                + "one provider");
        UNSUPPORTED_DUBBO.put("injvm", "no in-JVM shortcut, calls go through the protocol (Dubbo's "
                + "scope=\"remote\"): leave it out, or call the implementation directly");
        UNSUPPORTED_DUBBO.put("scope", "no in-JVM shortcut, calls go through the protocol (Dubbo's "
                + "scope=\"remote\"): leave it out, or call the implementation directly");
        UNSUPPORTED_DUBBO.put("callbacks", "no callback arguments: return a CompletableFuture instead");
        UNSUPPORTED_DUBBO.put("onreturn", "no event methods: use the CompletableFuture a method returns (or "
                + "RpcContext.current().future() after an async=\"true\" call) and its whenComplete");
        UNSUPPORTED_DUBBO.put("onthrow", "no event methods: use the CompletableFuture a method returns (or "
                + "RpcContext.current().future() after an async=\"true\" call) and its whenComplete");
        UNSUPPORTED_DUBBO.put("oninvoke", "no event methods: use a Filter, named by filter=\"...\"");
        UNSUPPORTED_DUBBO.put("merger", "no merging of groups' results: call a reference per group and merge in "
                + "the caller");
        UNSUPPORTED_DUBBO.put("tag", "no tag routing: use group=\"...\" to keep consumers on a set of providers");
        UNSUPPORTED_DUBBO.put("client", "Netty 4 is the only transport (Dubbo's netty and netty4): leave it out");
        UNSUPPORTED_DUBBO.put("server", "Netty 4 is the only transport (Dubbo's netty and netty4): leave it out");
        UNSUPPORTED_DUBBO.put("transporter", "Netty 4 is the only transport (Dubbo's netty and netty4): leave it "
                + "out");
        UNSUPPORTED_DUBBO.put("codec", "Ferry speaks the dubbo protocol only: leave it out");
        UNSUPPORTED_DUBBO.put("charset", "names are UTF-8 on the wire: leave it out");
        UNSUPPORTED_DUBBO.put("default", "one registry and one protocol per file, the default of everything: "
                + "leave it out");
        UNSUPPORTED_DUBBO.put("telnet", "no telnet console: the admin port (qos-enable) answers HTTP");
        UNSUPPORTED_DUBBO.put("id", "one registry and one protocol per file, named by nothing: leave it out");
        UNSUPPORTED_DUBBO.put("protocol", "one protocol per file, dubbo, which every service and reference uses: "
                + "leave it out");
        UNSUPPORTED_DUBBO.put("registry", "one registry per file, which every service and reference uses (a "
                + "reference with url=\"...\" none): leave it out");
        UNSUPPORTED_DUBBO.put("simplified", "Ferry's provider URLs carry only what consumers use already: leave it "
                + "out");
        UNSUPPORTED_DUBBO.put("logger", "Ferry logs through slf4j: leave it out and choose the binding on the "
                + "class path");
        UNSUPPORTED_DUBBO.put("compiler", "Ferry generates no code (JDK proxies): leave it out");
        UNSUPPORTED_DUBBO.put("register-mode", "Ferry registers interfaces, as register-mode=\"interface\"; no "
                + "application-level discovery: leave it out");
        UNSUPPORTED_DUBBO.put("metadata-type", "no metadata service or center: consumers find what they need in "
                + "the provider's URL; leave it out");
        UNSUPPORTED_DUBBO.put("qos-host", "the admin port listens on 127.0.0.1, or on every address with "
                + "qos-accept-foreign-ip=\"true\": leave it out");
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
            "metrics", "metrics are Micrometer's: give Ferry a MeterRegistry in code (Observability.meters; see "
                    + "Operations)",
            "tracing", "traces come from Micrometer's Observation API: give Ferry an ObservationRegistry in code "
                    + "(Observability.observations; see Operations)");

    /** The README's list of what a Dubbo file may hold that Ferry refuses, with why. */
    static String unsupportedMarkdown() {
        StringBuilder md = new StringBuilder();
        UNSUPPORTED_DUBBO.forEach((attribute, reason) ->
                md.append("- `").append(attribute).append("`: ").append(reason).append('\n'));
        new java.util.TreeMap<>(UNSUPPORTED_ELEMENTS).forEach((element, reason) ->
                md.append("- `<").append(element).append(">`: ").append(reason).append('\n'));
        return md.toString();
    }
}
