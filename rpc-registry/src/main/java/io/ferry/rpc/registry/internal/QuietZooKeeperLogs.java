package io.ferry.rpc.registry.internal;

import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Properties;

/**
 * Keeps ZooKeeper's and Curator's INFO output (a banner, and the whole environment and class path for the server
 * and for each client) out of an application's log when Ferry runs an embedded server (an address with
 * {@code embedded=true}), by raising them to WARN, but only where the application has not set them itself, and only
 * for the bindings whose defaults Ferry can see: slf4j-simple (through its system properties, unless set there or
 * in {@code simplelogger.properties}) and logback (a logger with no level of its own). Any other binding is left as
 * it is; the README says how to configure it.
 */
public final class QuietZooKeeperLogs {
    /**
     * ZooKeeper (its banner, environment dumps, TLS and audit notes) and Curator (whose state changes Ferry's
     * registry reports itself in one line): their warnings and errors still show.
     */
    private static final List<String> NOISY = List.of("org.apache.zookeeper", "org.apache.curator");
    private static final String SIMPLE_PREFIX = "org.slf4j.simpleLogger.log.";
    private static volatile boolean done;

    private QuietZooKeeperLogs() {
    }

    /** Applies once per process, before the first ZooKeeper server or client of an embedded registry starts. */
    public static synchronized void apply() {
        if (done) {
            return;
        }
        done = true;
        ILoggerFactory factory = LoggerFactory.getILoggerFactory();
        String binding = factory.getClass().getName();
        if (binding.startsWith("org.slf4j.simple.")) {
            Properties file = simpleLoggerFile();
            for (String logger : NOISY) {
                if (!configuredForSimpleLogger(logger, file)) {
                    System.setProperty(SIMPLE_PREFIX + logger, "warn");
                }
            }
        } else if (binding.equals("ch.qos.logback.classic.LoggerContext")) {
            NOISY.forEach(logger -> quietLogback(factory, logger));
        }
    }

    private static boolean configuredForSimpleLogger(String logger, Properties file) {
        for (String name = logger; name != null; name = parent(name)) {
            String key = SIMPLE_PREFIX + name;
            if (System.getProperty(key) != null || file.getProperty(key) != null) {
                return true;
            }
        }
        return false;
    }

    private static String parent(String name) {
        int dot = name.lastIndexOf('.');
        return dot < 0 ? null : name.substring(0, dot);
    }

    private static Properties simpleLoggerFile() {
        Properties properties = new Properties();
        try (InputStream in = QuietZooKeeperLogs.class.getClassLoader()
                .getResourceAsStream("simplelogger.properties")) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException | RuntimeException unreadable) {
            // then nothing counts as configured there
        }
        return properties;
    }

    /** logback, by reflection (Ferry does not depend on it): WARN for a logger with no level of its own. */
    private static void quietLogback(ILoggerFactory factory, String name) {
        try {
            Object logger = factory.getLogger(name);
            Method getLevel = logger.getClass().getMethod("getLevel");
            if (getLevel.invoke(logger) != null) {
                return;
            }
            Class<?> level = Class.forName("ch.qos.logback.classic.Level", true, logger.getClass().getClassLoader());
            Object warn = level.getField("WARN").get(null);
            logger.getClass().getMethod("setLevel", level).invoke(logger, warn);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError unexpected) {
            // another logback version: leave the logger as it is
        }
    }
}
