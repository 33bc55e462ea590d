package io.ferry.rpc.spring;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.FactoryBean;
import org.springframework.util.ClassUtils;

/**
 * A {@code <ferry:reference>} as a bean of its interface's type: the proxy the context's Ferry created for the
 * reference of this id. Getting it builds the Ferry if nothing has yet.
 */
final class ReferenceFactoryBean implements FactoryBean<Object>, BeanFactoryAware {
    private final String id;
    private final String interfaceName;
    private BeanFactory beans;

    ReferenceFactoryBean(String id, String interfaceName) {
        this.id = id;
        this.interfaceName = interfaceName;
    }

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beans = beanFactory;
    }

    @Override
    public Object getObject() {
        return beans.getBean(FerryLifecycle.class).ferry().reference(id, type());
    }

    @Override
    public Class<?> getObjectType() {
        return ClassUtils.isPresent(interfaceName, getClass().getClassLoader()) ? type() : null;
    }

    private Class<?> type() {
        return ClassUtils.resolveClassName(interfaceName, Thread.currentThread().getContextClassLoader() != null
                ? Thread.currentThread().getContextClassLoader() : getClass().getClassLoader());
    }

    @Override
    public String toString() {
        return "ferry:reference " + id + " (" + interfaceName + ")";
    }
}
