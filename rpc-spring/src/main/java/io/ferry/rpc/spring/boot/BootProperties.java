package io.ferry.rpc.spring.boot;

import io.ferry.rpc.config.FerryFile;
import io.ferry.rpc.spring.FerryDeclaration;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.PropertySourceOrigin;
import org.springframework.boot.origin.TextResourceOrigin;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * The application's {@code ferry.*} properties, as Boot sees them (application.properties and .yml, profiles,
 * environment variables, command-line arguments, ...), declared to Ferry through {@link FerryFile#properties}: one
 * option table, one set of checks and messages with the files'. Each key is read from the source Boot ranks first
 * that has it, its name turned into Ferry's ({@link FerryPropertyNames}), its placeholders resolved, and its origin
 * kept for messages ({@code application.properties:3}, {@code System Environment Property "FERRY_CONSUMER_TIMEOUT"}).
 * A YAML list is one comma-separated value. System properties are left to Ferry, which reads {@code -Dferry.*}
 * itself, over everything else. {@code ferry.scan.base-packages} is checked there too, and scanned by
 * {@link RpcExportScan}; {@code ferry.protocol.name}, which Dubbo's Boot applications set, may only say
 * {@code dubbo}, and is then dropped. A {@code dubbo.*} key left from Dubbo (in a file, a profile, the command line)
 * is refused at start with the {@code ferry.} key to write, as Ferry's properties reader refuses it; Dubbo's
 * environment variables ({@code DUBBO_IP_TO_REGISTRY}, ...), which processes of both may share, are left alone.
 */
final class BootProperties implements FerryDeclaration, org.springframework.beans.factory.BeanFactoryAware {
    /** Dubbo's Boot applications name their protocol; Ferry's one is dubbo, so that value is taken and dropped. */
    private static final String PROTOCOL_NAME = "ferry.protocol.name";
    private static final ConfigurationPropertyName DUBBO = ConfigurationPropertyName.of("dubbo");
    private final ConfigurableEnvironment environment;
    /** The context's beans, for the services' refs; null when read before there is one (PropertyReferences). */
    private org.springframework.beans.factory.config.ConfigurableListableBeanFactory beans;

    BootProperties(ConfigurableEnvironment environment) {
        this.environment = environment;
    }

    @Override
    public FerryFile read(UnaryOperator<String> placeholders) {
        Map<String, Value> keys = new LinkedHashMap<>();
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            if (source instanceof IterableConfigurationPropertySource iterable && !isSystemProperties(source)) {
                read(iterable).forEach(keys::putIfAbsent); // the first source that has a key wins, as in Boot
            }
        }
        Value protocol = keys.remove(PROTOCOL_NAME);
        if (protocol != null && !protocol.text().trim().equalsIgnoreCase("dubbo")) {
            throw new IllegalArgumentException(protocol.where() + ": " + PROTOCOL_NAME + ": '" + protocol.text()
                    + "' (expected: dubbo, the only protocol Ferry speaks)");
        }
        List<Map.Entry<String, String>> entries = new ArrayList<>();
        Map<String, String> where = new LinkedHashMap<>();
        keys.forEach((key, value) -> {
            where.put(key, value.where());
            entries.add(new AbstractMap.SimpleImmutableEntry<>(key, resolve(key, value, placeholders)));
        });
        Map<String, Value> dubbo = new LinkedHashMap<>();
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            if (source instanceof IterableConfigurationPropertySource iterable && !isSystemProperties(source)
                    && !isSystemEnvironment(source)) {
                dubboKeys(iterable).forEach(dubbo::putIfAbsent);
            }
        }
        dubbo.forEach((key, value) -> {
            // the reader refuses it, naming the ferry. key to write
            where.put(key, value.where());
            entries.add(new AbstractMap.SimpleImmutableEntry<>(key, value.text()));
        });
        return beans == null ? FerryFile.properties(entries, where::get)
                : FerryFile.properties(entries, where::get, beans::containsBean,
                io.ferry.rpc.spring.FerryLifecycle.applicationBeans(beans));
    }

    @Override
    public void setBeanFactory(org.springframework.beans.factory.BeanFactory beanFactory) {
        if (beanFactory instanceof org.springframework.beans.factory.config.ConfigurableListableBeanFactory listable) {
            this.beans = listable;
        }
    }

    private static boolean isSystemProperties(ConfigurationPropertySource source) {
        return source.getUnderlyingSource() instanceof PropertySource<?> underlying
                && underlying.getName().equals(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
    }

    private static boolean isSystemEnvironment(ConfigurationPropertySource source) {
        return source.getUnderlyingSource() instanceof PropertySource<?> underlying
                && underlying.getName().equals(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
    }

    private record Value(String text, String where) {
    }

    /** A source's {@code dubbo.*} keys, spelled as their {@code ferry.} keys would be. */
    private static Map<String, Value> dubboKeys(IterableConfigurationPropertySource source) {
        Map<String, Value> keys = new LinkedHashMap<>();
        source.filter(DUBBO::isAncestorOf).stream().forEach(name -> {
            ConfigurationProperty property = source.getConfigurationProperty(name);
            if (property == null || property.getValue() == null) {
                return;
            }
            String ferry;
            try {
                ferry = FerryPropertyNames.ferryKey(ConfigurationPropertyName.of("ferry"
                        + name.toString().substring("dubbo".length())));
            } catch (RuntimeException e) {
                ferry = "ferry" + name.toString().substring("dubbo".length());
            }
            String key = "dubbo" + ferry.substring("ferry".length());
            keys.putIfAbsent(key, new Value(String.valueOf(property.getValue()), where(property, source, key)));
        });
        return keys;
    }

    /** One source's {@code ferry.*} keys in Ferry's names; a list's items joined with commas, in order. */
    private static Map<String, Value> read(IterableConfigurationPropertySource source) {
        Map<String, Value> keys = new LinkedHashMap<>();
        Map<String, TreeMap<Integer, Value>> lists = new LinkedHashMap<>();
        source.filter(FerryPropertyNames.PREFIX::isAncestorOf).stream().forEach(name -> {
            ConfigurationProperty property = source.getConfigurationProperty(name);
            if (property == null || property.getValue() == null) {
                return;
            }
            int last = name.getNumberOfElements() - 1;
            boolean item = last > 1 && name.isNumericIndex(last);
            String key = FerryPropertyNames.ferryKey(item ? name.getParent() : name);
            Value value = new Value(String.valueOf(property.getValue()), where(property, source, key));
            if (item) {
                lists.computeIfAbsent(key, k -> new TreeMap<>()).put(Integer.parseInt(name.getElement(last,
                        ConfigurationPropertyName.Form.ORIGINAL)), value);
            } else {
                keys.putIfAbsent(key, value);
            }
        });
        lists.forEach((key, items) -> keys.putIfAbsent(key, new Value(String.join(",",
                items.values().stream().map(Value::text).toList()), items.firstEntry().getValue().where())));
        return keys;
    }

    /**
     * {@code application.properties:3} for a file's line, with the name as written when it is not Ferry's
     * ({@code application.properties:3 (ferry.protocol.io-threads)}); else how Boot names the origin (an environment
     * variable names itself), or the property source.
     */
    private static String where(ConfigurationProperty property, ConfigurationPropertySource source, String key) {
        Origin origin = property.getOrigin();
        while (origin instanceof PropertySourceOrigin wrapped && wrapped.getOrigin() != null) {
            origin = wrapped.getOrigin();
        }
        if (origin instanceof TextResourceOrigin text && text.getResource() != null && text.getLocation() != null
                && text.getResource().getFilename() != null) {
            String written = property.getName().toString();
            return text.getResource().getFilename() + ":" + (text.getLocation().getLine() + 1)
                    + (written.equals(key) ? "" : " (" + written + ")");
        }
        if (origin != null) {
            return origin.toString();
        }
        return source.getUnderlyingSource() instanceof PropertySource<?> underlying
                ? "property source '" + underlying.getName() + "'" : String.valueOf(source);
    }

    private static String resolve(String key, Value value, UnaryOperator<String> placeholders) {
        try {
            return placeholders.apply(value.text());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(value.where() + ": " + key + ": '" + value.text() + "': "
                    + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return "ferry.* properties of the Spring Boot environment";
    }
}
