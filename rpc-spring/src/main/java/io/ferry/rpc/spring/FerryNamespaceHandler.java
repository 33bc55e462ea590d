package io.ferry.rpc.spring;

import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.xml.NamespaceHandlerSupport;
import org.springframework.beans.factory.xml.ParserContext;
import org.w3c.dom.Element;

/**
 * Spring's handler for Ferry's namespace, {@code http://ferry.io/schema/ferry} (registered in
 * {@code META-INF/spring.handlers}; the schema is rpc-config's {@code ferry-spring.xsd}, mapped in
 * {@code META-INF/spring.schemas}), so that a Spring XML file holds {@code ferry:} elements beside its beans. Every
 * element of the namespace goes to {@link FerryElementParser}, Dubbo's that Ferry refuses ({@code <ferry:monitor>})
 * too: Ferry's reader reports them, with their reasons and the file's other mistakes, when the Ferry is built.
 */
public final class FerryNamespaceHandler extends NamespaceHandlerSupport {
    private final FerryElementParser parser = new FerryElementParser();

    @Override
    public void init() {
        for (String element : FerryElementParser.ELEMENTS) {
            registerBeanDefinitionParser(element, parser);
        }
    }

    @Override
    public BeanDefinition parse(Element element, ParserContext parserContext) {
        return parser.parse(element, parserContext);
    }
}
