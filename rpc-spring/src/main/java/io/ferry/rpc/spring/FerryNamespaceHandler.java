package io.ferry.rpc.spring;

import org.springframework.beans.factory.xml.NamespaceHandlerSupport;

/**
 * Spring's handler for Ferry's namespace, {@code http://ferry.io/schema/ferry} (registered in
 * {@code META-INF/spring.handlers}; the schema is rpc-config's {@code ferry.xsd}, mapped in
 * {@code META-INF/spring.schemas}), so that a Spring XML file holds {@code ferry:} elements beside its beans.
 */
public final class FerryNamespaceHandler extends NamespaceHandlerSupport {
    @Override
    public void init() {
        FerryElementParser parser = new FerryElementParser();
        for (String element : FerryElementParser.ELEMENTS) {
            registerBeanDefinitionParser(element, parser);
        }
    }
}
