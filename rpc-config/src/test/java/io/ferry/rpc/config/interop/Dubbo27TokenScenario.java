package io.ferry.rpc.config.interop;

import io.ferry.rpc.config.fixtures.UserService;
import io.ferry.rpc.config.fixtures.UserServiceImpl;
import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.config.ServiceConfig;

/**
 * Stock Apache Dubbo 2.7.23 with a token, in a JVM of its own whose class path holds Dubbo 2.7 and its Netty 4.1
 * (and no Ferry): compiled against Dubbo 3's API, it calls only what 2.7 has alike. Prints its outcomes as
 * {@code SCENARIO ...} lines.
 * <ul>
 *   <li>{@code consumer PORT TOKEN}: calls the provider at PORT with TOKEN, then with another token;</li>
 *   <li>{@code provider PORT}: exports UserService with {@code token="true"} on PORT, prints the token Dubbo drew,
 *       and serves until its standard input closes.</li>
 * </ul>
 */
public final class Dubbo27TokenScenario {
    private Dubbo27TokenScenario() {
    }

    public static void main(String[] args) throws Exception {
        DubboLoopback.ignoreOtherInterfaces();
        try {
            if (args[0].equals("consumer")) {
                consumer(Integer.parseInt(args[1]), args[2]);
            } else {
                provider(Integer.parseInt(args[1]));
            }
        } catch (Throwable t) {
            System.out.println("SCENARIO FAILED " + t);
            t.printStackTrace(System.out);
        }
        System.out.flush();
        Runtime.getRuntime().halt(0); // Dubbo's non-daemon threads would keep the JVM up
    }

    private static void consumer(int port, String token) {
        ApplicationConfig application = new ApplicationConfig("dubbo27-consumer");
        application.setQosEnable(false);
        System.out.println("SCENARIO OK " + reference(application, port, token).hello("dubbo27"));
        try {
            reference(application, port, "guess").hello("intruder");
            System.out.println("SCENARIO NOT REFUSED");
        } catch (RuntimeException e) {
            System.out.println("SCENARIO REFUSED " + e.getMessage().replace('\n', ' '));
        }
    }

    private static UserService reference(ApplicationConfig application, int port, String token) {
        ReferenceConfig<UserService> reference = new ReferenceConfig<>();
        reference.setApplication(application);
        reference.setInterface(UserService.class);
        reference.setUrl("dubbo://127.0.0.1:" + port + "?serialization=hessian2&token=" + token);
        reference.setTimeout(5000);
        reference.setRetries(0);
        reference.setCheck(false);
        return reference.get();
    }

    private static void provider(int port) throws Exception {
        ApplicationConfig application = new ApplicationConfig("dubbo27-provider");
        application.setQosEnable(false);
        ProtocolConfig protocol = new ProtocolConfig("dubbo", port);
        protocol.setHost("127.0.0.1");
        protocol.setSerialization("hessian2");
        ServiceConfig<UserService> service = new ServiceConfig<>();
        service.setApplication(application);
        service.setRegistry(new RegistryConfig("N/A"));
        service.setProtocol(protocol);
        service.setInterface(UserService.class);
        service.setRef(new UserServiceImpl());
        service.setToken("true");
        service.export();
        System.out.println("SCENARIO TOKEN " + service.getExportedUrls().get(0).getParameter("token"));
        System.out.flush();
        while (System.in.read() >= 0) {
            // serve until the test closes our standard input (or kills us)
        }
    }
}
