package io.ferry.rpc.config.internal.files;

import io.ferry.rpc.config.internal.files.PropertyKey;
import io.ferry.rpc.option.Scope;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.config.option.Settings;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a configuration file describes, before anything is built: settings per scope, and the references (by id)
 * and services (by interface) it declares, each with its methods' settings. Front ends fill it; {@link Binder}
 * turns it into the typed configs.
 */
final class FileModel {
    final Settings application = new Settings();
    final Settings registry = new Settings();
    final Settings protocol = new Settings();
    final Settings ssl = new Settings();
    final Settings provider = new Settings();
    final Settings consumer = new Settings();
    final Map<String, Member> references = new LinkedHashMap<>();
    /** By {@link #serviceKey}: a file may export one interface in several versions or groups, as Dubbo's may. */
    final Map<String, Member> services = new LinkedHashMap<>();
    /** Implementations declared by id ({@code <bean id class>}), for services that name one by {@code ref}. */
    final Map<String, Bean> beans = new LinkedHashMap<>();
    /** Packages whose {@code @RpcExport} classes are exported ({@code <annotation package>}), in order. */
    final List<Scan> scans = new java.util.ArrayList<>();
    /** The mistakes found while reading, for the bootstrap to report with its own, all at once. */
    final Problems problems = new Problems();
    /** Dubbo's registry address that means "no registry". */
    static final String NO_REGISTRY = "N/A";
    /** Where the registry's address said {@link #NO_REGISTRY}, or null: then the file names no registry. */
    String noRegistry;
    /** {@code ferry.registry.protocol}: the scheme of a registry address that has none, and where it was set. */
    private String registryProtocol;
    private String registryProtocolWhere;
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(FileModel.class);

    /**
     * A package to scan for {@code @RpcExport} classes, and where the file asked for it, as messages start:
     * {@code ferry.xml:7: <annotation> package}, {@code ferry.properties:3: ferry.scan.base-packages}.
     */
    record Scan(String packageName, String where) {
    }

    /**
     * How {@link #services} keys a service: its interface's name alone when it has no version and no group (so
     * that a properties file's {@code ferry.service.<interface>.*} names it), else Dubbo's service key,
     * {@code group/interface:version}.
     */
    static String serviceKey(String type, String version, String group) {
        String v = version == null ? "" : version.strip();
        String g = group == null ? "" : group.strip();
        return (g.isEmpty() ? "" : g + "/") + type + (v.isEmpty() ? "" : ":" + v);
    }

    /** An implementation class a file declares under an id. */
    record Bean(String id, String className, String where) {
    }

    /** A reference or a service: what it is ({@code interface} or {@code class}), its settings and its methods'. */
    static final class Member {
        final String id;
        final String firstSeen;
        String type;
        String typeWhere;
        /** A service's implementation by bean id, instead of {@link #type}. */
        String ref;
        String refWhere;
        final Settings settings = new Settings();
        final Map<String, Settings> methods = new LinkedHashMap<>();
        /** Its file already reported why it cannot be built: the bootstrap does not say it again. */
        boolean reported;

        Member(String id, String firstSeen) {
            this.id = id;
            this.firstSeen = firstSeen;
        }
    }

    /**
     * Adds entries in order; a later entry for the same key (a -D override) replaces an earlier one. An entry in
     * error is left out and kept in {@link #problems}, so that every wrong key and value is reported at once.
     */
    void addAll(List<PropertiesReader.Entry> entries) {
        for (PropertiesReader.Entry entry : entries) {
            problems.attempt(() -> {
                if (entry.key().equals(SCAN_KEY)) {
                    XmlReader.refusePlaceholder(entry.where() + ": " + entry.key(), entry.value());
                    scans(entry.value(), entry.where().equals("-D" + SCAN_KEY) ? entry.where()
                            : entry.where() + ": " + SCAN_KEY);
                } else if (PropertyKey.isFerryKey(entry.key())) {
                    XmlReader.refusePlaceholder(entry.where() + ": " + entry.key(), entry.value());
                    add(PropertyKey.parse(entry.key(), entry.where()), entry.key(), entry.value(), entry.where());
                } else {
                    refuseNearMiss(entry);
                }
            });
        }
        applyRegistryProtocol();
    }

    /** {@code ferry.registry.protocol=zookeeper} and an address without a scheme: XML's {@code <registry protocol>}. */
    private void applyRegistryProtocol() {
        Settings.Setting address = registry.setting(Options.REGISTRY_ADDRESS);
        if (registryProtocol != null && address != null && !String.valueOf(address.value()).contains("://")) {
            problems.attempt(() -> registry.parse(Options.REGISTRY_ADDRESS, registryProtocol.strip() + "://"
                    + String.valueOf(address.value()).strip(), address.where()));
        }
    }

    /** The properties' {@code <annotation package>}, named as Dubbo's Spring Boot names it (dubbo.scan.base-packages). */
    static final String SCAN_KEY = "ferry.scan.base-packages";

    /**
     * Packages to scan for {@code @RpcExport} classes, comma-separated, each checked to be a Java package name.
     *
     * @param where the file and line, and the attribute or key, as messages start
     */
    void scans(String packages, String where) {
        List<String> wrong = new java.util.ArrayList<>();
        for (String name : packages.strip().split("[,;\\s]+")) {
            if (name.isEmpty()) {
                continue;
            }
            if (!name.matches("\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*"
                    + "(\\.\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*)*")) {
                wrong.add(where + ": '" + name + "' (expected: a Java package name, such as com.acme.service)");
            } else {
                scans.add(new Scan(name, where));
            }
        }
        if (!wrong.isEmpty()) {
            throw new IllegalArgumentException(String.join("\n", wrong));
        }
    }

    /** Other keys are not Ferry's business, unless they look meant for it: Dubbo's prefix, or a misspelt one. */
    private static void refuseNearMiss(PropertiesReader.Entry entry) {
        String head = entry.key().contains(".") ? entry.key().substring(0, entry.key().indexOf('.')) : "";
        String rest = entry.key().substring(head.length());
        if (head.equals("dubbo")) {
            // what the key would be in Ferry's names, and whether Ferry takes that
            String ferry = "ferry" + rest;
            String refusal = null;
            if (!ferry.equals(SCAN_KEY)) {
                try {
                    PropertyKey key = PropertyKey.parse(ferry, "");
                    XmlVocabulary.Dubbo dubbo = key.dubbo();
                    if (dubbo != null && !dubbo.takes(entry.value())) {
                        refusal = dubbo.refusal(ferry, entry.value());
                    }
                } catch (IllegalArgumentException e) {
                    refusal = e.getMessage();
                }
            }
            throw new IllegalArgumentException(entry.where() + ": " + entry.key() + ": a Dubbo key ("
                    + (refusal == null ? "expected: " + ferry + ", with the option names of Ferry's reference)"
                    : "and as " + refusal + ")"));
        }
        if (!head.isEmpty() && io.ferry.rpc.config.internal.files.DidYouMean.nearest(head, List.of("ferry")) != null) {
            throw new IllegalArgumentException(entry.where() + ": " + entry.key() + ": unknown key (did you mean ferry"
                    + rest + "?)");
        }
    }

    private void add(PropertyKey key, String written, String text, String where) {
        XmlVocabulary.Dubbo dubbo = key.dubbo();
        if (dubbo != null) {
            // a Dubbo attribute that is no option, taken for the values that ask for what Ferry does
            if (!dubbo.takes(text)) {
                throw new IllegalArgumentException(where + ": " + dubbo.refusal(written, text));
            }
            log.debug("{}: {}={}: what Ferry does, taken with no effect", where, written, text);
            return;
        }
        if (key.structural() && key.scope() == Scope.REGISTRY) {
            registryProtocol = text;
            registryProtocolWhere = where;
            return;
        }
        if (key.option() == Options.REGISTRY_ADDRESS && text.strip().equalsIgnoreCase(NO_REGISTRY)) {
            noRegistry = where; // Dubbo's "no registry": as a file that names none
            return;
        }
        String value = key.option() == null ? text : XmlVocabulary.dubboValue(key.option(), text);
        switch (key.scope()) {
            case APPLICATION -> application.parse(key.option(), value, where);
            case REGISTRY -> registry.parse(key.option(), value, where);
            case PROTOCOL -> protocol.parse(key.option(), value, where);
            case SSL -> ssl.parse(key.option(), value, where);
            case PROVIDER -> provider.parse(key.option(), value, where);
            case CONSUMER -> consumer.parse(key.option(), value, where);
            case REFERENCE, SERVICE, METHOD -> member(key, value, where);
        }
    }

    /** Takes from {@code lower}, a source of lower precedence, whatever this model does not set itself. */
    void fillFrom(FileModel lower) {
        application.fillFrom(lower.application);
        registry.fillFrom(lower.registry);
        protocol.fillFrom(lower.protocol);
        ssl.fillFrom(lower.ssl);
        provider.fillFrom(lower.provider);
        consumer.fillFrom(lower.consumer);
        fillMembers(references, lower.references);
        fillMembers(services, lower.services);
        lower.beans.forEach(beans::putIfAbsent);
        if (noRegistry == null) {
            noRegistry = lower.noRegistry;
        }
        lower.scans.forEach(scan -> {
            if (!scans.contains(scan)) {
                scans.add(scan);
            }
        });
        problems.addAll(lower.problems);
    }

    /**
     * Refuses what two files of one host may not both say: the same reference id or service interface, or one
     * setting of a process-wide scope with two values. Every clash is named in one error.
     */
    static void refuseConflicts(FileModel one, FileModel other) {
        List<String> clashes = new java.util.ArrayList<>();
        clashes(one.application, other.application, clashes);
        clashes(one.registry, other.registry, clashes);
        clashes(one.protocol, other.protocol, clashes);
        clashes(one.ssl, other.ssl, clashes);
        clashes(one.provider, other.provider, clashes);
        clashes(one.consumer, other.consumer, clashes);
        one.references.forEach((id, member) -> {
            Member again = other.references.get(id);
            if (again != null) {
                clashes.add(again.firstSeen + ": reference id '" + id + "' is taken (first at " + member.firstSeen
                        + ")");
            }
        });
        one.services.forEach((type, member) -> {
            Member again = other.services.get(type);
            if (again != null) {
                clashes.add(again.firstSeen + ": declared twice (first at " + member.firstSeen
                        + "; one service per interface, version and group)");
            }
        });
        if (!clashes.isEmpty()) {
            throw new IllegalArgumentException(String.join("\n", clashes));
        }
    }

    private static void clashes(Settings one, Settings other, List<String> into) {
        for (io.ferry.rpc.option.Option<?> option : one.options()) {
            Settings.Setting mine = one.setting(option);
            Settings.Setting theirs = other.setting(option);
            if (theirs != null && !java.util.Objects.equals(mine.value(), theirs.value())) {
                into.add(theirs.where() + ": " + option.fileName() + " is set to another value at " + mine.where()
                        + " (expected: one value, or the setting in one file)");
            }
        }
    }

    private static void fillMembers(Map<String, Member> mine, Map<String, Member> lower) {
        for (Map.Entry<String, Member> entry : lower.entrySet()) {
            Member from = entry.getValue();
            Member to = mine.computeIfAbsent(entry.getKey(), key -> new Member(from.id, from.firstSeen));
            if (to.type == null && to.ref == null) {
                to.type = from.type;
                to.typeWhere = from.typeWhere;
                to.ref = from.ref;
                to.refWhere = from.refWhere;
            }
            to.settings.fillFrom(from.settings);
            from.methods.forEach((name, settings) ->
                    to.methods.computeIfAbsent(name, n -> new Settings()).fillFrom(settings));
        }
    }

    private void member(PropertyKey key, String value, String where) {
        // a reference's id has no dot (PropertyKey's grammar); a service's is its interface's name, which has
        boolean reference = key.scope() == Scope.REFERENCE
                || (key.scope() == Scope.METHOD && !key.id().contains("."));
        Map<String, Member> members = reference ? references : services;
        Member member = members.computeIfAbsent(key.id(), id -> new Member(id, where));
        if (key.option() == null && key.attribute().equals("ref")) {
            member.ref = value.strip();
            member.refWhere = where;
        } else if (key.option() == null) {
            member.type = value.strip();
            member.typeWhere = where;
        } else if (key.scope() == Scope.METHOD) {
            member.methods.computeIfAbsent(key.method(), m -> new Settings()).parse(key.option(), value, where);
        } else {
            member.settings.parse(key.option(), value, where);
        }
    }
}
