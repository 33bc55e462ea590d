package io.ferry.rpc.benchmark.suite;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What a run of each profile is planned to take, and the time left as it goes. */
class RunPlanTest {
    @Test
    void aSystemRunsAForkPerMethodTwiceWithLatencyAndOnePerWindow() {
        RunPlan quick = new RunPlan(Profile.QUICK, 5);
        assertEquals(4 * 2 + 2, quick.forksPerSystem());
        assertEquals(RunPlan.FORK_START_SECONDS + 2 * 2 + 2 * 3, quick.forkSeconds());
        assertEquals(RunPlan.PROVIDER_START_SECONDS + 5 + 10 * quick.forkSeconds(), quick.systemSeconds());
        assertEquals(5 * quick.systemSeconds(), quick.totalSeconds());
        assertEquals(3 * 5 * new RunPlan(Profile.FULL, 5).systemSeconds(), new RunPlan(Profile.FULL, 5).totalSeconds());
    }

    @Test
    void theTimeLeftIsThePlansRestAtThisRunsPaceNeverFaster() {
        RunPlan plan = new RunPlan(Profile.QUICK, 1);
        int total = plan.totalSeconds();
        assertEquals(total, plan.secondsLeft(0, 30));
        assertEquals(total - 100, plan.secondsLeft(100, 50), "ahead of the plan: the plan's rest");
        assertEquals(2L * (total - 100), plan.secondsLeft(100, 200), "twice as slow: twice the rest");
        assertEquals(0, plan.secondsLeft(total + 5, total + 9));
    }

    @Test
    void clockReadsAsMinutesOrHours() {
        assertEquals("0:42", RunPlan.clock(42));
        assertEquals("10:36", RunPlan.clock(636));
        assertEquals("2:30:45", RunPlan.clock(9045));
    }
}
