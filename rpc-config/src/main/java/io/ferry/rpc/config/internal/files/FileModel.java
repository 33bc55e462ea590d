package io.ferry.rpc.config.internal.files;

import io.ferry.rpc.config.option.PropertyKey;
import io.ferry.rpc.config.option.Scope;
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
    final Settings consumer = new Settings();
    final Map<String, Member> references = new LinkedHashMap<>();
    final Map<String, Member> services = new LinkedHashMap<>();

    /** A reference or a service: what it is ({@code interface} or {@code class}), its settings and its methods'. */
    static final class Member {
        final String id;
        final String firstSeen;
        String type;
        String typeWhere;
        final Settings settings = new Settings();
        final Map<String, Settings> methods = new LinkedHashMap<>();

        Member(String id, String firstSeen) {
            this.id = id;
            this.firstSeen = firstSeen;
        }
    }

    /** Adds entries in order; a later entry for the same key (a -D override) replaces an earlier one. */
    void addAll(List<PropertiesReader.Entry> entries) {
        for (PropertiesReader.Entry entry : entries) {
            if (PropertyKey.isFerryKey(entry.key())) {
                add(PropertyKey.parse(entry.key(), entry.where()), entry.value(), entry.where());
            }
        }
    }

    private void add(PropertyKey key, String value, String where) {
        switch (key.scope()) {
            case APPLICATION -> application.parse(key.option(), value, where);
            case REGISTRY -> registry.parse(key.option(), value, where);
            case PROTOCOL -> protocol.parse(key.option(), value, where);
            case CONSUMER -> consumer.parse(key.option(), value, where);
            case REFERENCE, SERVICE, METHOD -> member(key, value, where);
            default -> throw new IllegalArgumentException(where + ": the " + key.scope().key()
                    + " scope takes no option yet");
        }
    }

    private void member(PropertyKey key, String value, String where) {
        // a reference's id has no dot (PropertyKey's grammar); a service's is its interface's name, which has
        boolean reference = key.scope() == Scope.REFERENCE
                || (key.scope() == Scope.METHOD && !key.id().contains("."));
        Map<String, Member> members = reference ? references : services;
        Member member = members.computeIfAbsent(key.id(), id -> new Member(id, where));
        if (key.option() == null) {
            member.type = value.strip();
            member.typeWhere = where;
        } else if (key.scope() == Scope.METHOD) {
            member.methods.computeIfAbsent(key.method(), m -> new Settings()).parse(key.option(), value, where);
        } else {
            member.settings.parse(key.option(), value, where);
        }
    }
}
