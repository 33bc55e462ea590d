package io.ferry.rpc.remoting.internal.exchange;

import io.ferry.rpc.RpcStatus;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A token refusal keeps its words and loses the stack and the token a Dubbo provider echoes. */
class TokenRefusalsTest {
    private static final String WORDS = RpcStatus.INVALID_TOKEN_PREFIX + "interface a.Greeter method hello() from "
            + "consumer 127.0.0.1 to provider 127.0.0.1";

    @Test
    void dubbosBodyLosesItsClassNameStackAndTheEchoedToken() {
        // as Dubbo 3.3.6 sends it (measured): toString, the echoed token, then the stack
        String dubbo = "org.apache.dubbo.rpc.RpcException: " + WORDS + ", consumer incorrect token is s3cr3t\n"
                + "org.apache.dubbo.rpc.RpcException: " + WORDS + ", consumer incorrect token is s3cr3t\n"
                + "\tat org.apache.dubbo.rpc.filter.TokenFilter.invoke(TokenFilter.java:51)\n";
        assertEquals(WORDS, TokenRefusals.readable(dubbo));
    }

    @Test
    void ferrysWordsStayAsTheyAre() {
        assertEquals(WORDS + ", the consumer sent no token",
                TokenRefusals.readable(WORDS + ", the consumer sent no token"));
    }
}
