package io.ferry.rpc.spring;

import io.ferry.rpc.config.FerryFile;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.io.Resource;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.function.UnaryOperator;

/**
 * The {@code ferry:} elements of one Spring XML file, read again by Ferry's own reader when the Ferry is built:
 * with line numbers in every message, the option table's checks, and the context's placeholders resolved then (a
 * placeholder configurer has registered by that time). Its services' {@code ref} names are checked against the
 * context's beans then too, with the file's other mistakes.
 */
final class XmlFileDeclaration implements FerryDeclaration, BeanFactoryAware {
    private final Resource resource;
    private ConfigurableListableBeanFactory beans;

    XmlFileDeclaration(Resource resource) {
        this.resource = resource;
    }

    @Override
    public FerryFile read(UnaryOperator<String> placeholders) {
        try (InputStream in = resource.getInputStream()) {
            return beans == null ? FerryFile.xml(name(), in, placeholders)
                    : FerryFile.xml(name(), in, placeholders, beans::containsBean,
                    FerryLifecycle.applicationBeans(beans));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource.getDescription() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        if (beanFactory instanceof ConfigurableListableBeanFactory listable) {
            this.beans = listable;
        }
    }

    /** The file's name as messages show it: {@code provider.xml}, not the whole URL. */
    private String name() {
        String file = resource.getFilename();
        return file != null ? file : resource.getDescription();
    }

    @Override
    public String toString() {
        return "ferry: elements of " + resource.getDescription();
    }
}
