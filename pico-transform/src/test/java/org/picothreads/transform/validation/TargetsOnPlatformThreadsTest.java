package org.picothreads.transform.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.picothreads.targets.callbacks.JdkCallbacks;
import org.picothreads.targets.concatenation.ConcatenationCallingBlockingToString;
import org.picothreads.targets.concatenation.StringConcatenation;
import org.picothreads.targets.constructors.ConstructorArguments;
import org.picothreads.targets.exceptions.ExceptionTables;
import org.picothreads.targets.interfaces.BlockingInterfaceMethods;
import org.picothreads.targets.lambdas.FunctionalInterfacesCalledDirectly;
import org.picothreads.targets.lambdas.ThreadLambdas;
import org.picothreads.targets.loops.LoopsWithSuspension;
import org.picothreads.targets.manythreads.TenThousandSleepers;
import org.picothreads.targets.nested.NestedAndAnonymousClasses;
import org.picothreads.targets.operandstack.ValuesUnderArguments;
import org.picothreads.targets.primitives.PrimitiveValues;
import org.picothreads.targets.records.BlockingRecords;
import org.picothreads.targets.records.RecordWithBlockingConstructor;
import org.picothreads.targets.recursion.DeepRecursion;
import org.picothreads.targets.switches.SwitchesWithSuspension;
import org.picothreads.targets.threads.InterruptedMonitorWaits;
import org.picothreads.targets.threads.Interruption;
import org.picothreads.targets.threads.JoinAndYield;
import org.picothreads.targets.threads.SpinWaiting;
import org.picothreads.targets.threads.ThreadGroups;
import org.picothreads.targets.threads.ThreadProperties;
import org.picothreads.targets.threads.ThreadSubclasses;
import org.picothreads.targets.threads.UncaughtExceptions;
import org.picothreads.targets.threads.WaitOnThreadObjects;
import org.picothreads.transform.testing.TargetRunner;

/**
 * The targets as compiled, on platform threads: each gives the result worked out for it, and gives it again
 * on a second run, so that a difference on PicoThreads can only come from the transformation.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class TargetsOnPlatformThreadsTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("targetsAndTheirResults")
    void every_target_gives_its_expected_result_twice_on_platform_threads(Class<?> target, String expected) throws Exception {
        assertEquals(expected, TargetRunner.runPlain(target), "first run");
        assertEquals(expected, TargetRunner.runPlain(target), "second run");
    }

    static Stream<Arguments> targetsAndTheirResults() {
        return Stream.of(
                arguments(JdkCallbacks.class, """
                        53910|10,6,18,2,0|[0, 1, 3, 5, 9]|40|{key0=40}
                        53911|10,6,18,2,2|[1, 1, 3, 5, 9]|40|{key1=40}
                        53912|10,6,18,2,4|[1, 2, 3, 5, 9]|40|{key2=40}"""),
                arguments(ConcatenationCallingBlockingToString.class, """
                        [slow0|0]<slow0>
                        [slow1|1]<slow1>
                        [slow2|2]<slow2>"""),
                arguments(StringConcatenation.class, """
                        a0b40|5000000000:0.5:5000000001:p1.5:true:null:t7|12-end|start3/p
                        a1b41|10000000000:1.5:10000000001:q4.5:false:null:t8|12-end|start3/q
                        a2b42|15000000000:2.5:15000000001:r7.5:true:null:t9|12-end|start3/r"""),
                arguments(ConstructorArguments.class, """
                        (1,2)|Outer[3,4]|5/0txet|13|[(0,8)]|(9,0)(0,10)|(2,2)|Outer[23,1]
                        (2,3)|Outer[4,5]|6/1txet|113|[(1,8)]|(9,0)(0,10)|(3,2)|Outer[23,2]
                        (3,4)|Outer[5,6]|7/2txet|213|[(2,8)]|(9,0)(0,10)|(4,2)|Outer[23,3]"""),
                arguments(ExceptionTables.class, """
                        catch Throwable: nothing caught 0; catch Error: nothing caught 0; catch Exception: nothing caught, kept 1073741824; finally ran 1 time(s), result 10; nested: outer-try inner-try innermost-0 innermost-finally inner-finally outer-finally; right handler after-resume-0; callee threw callee-0, before 0; sleeps in handlers: try catch(thrown-0) finally; multi-catch IllegalArgumentException even-0; rethrown wrapped caused by first-0, finally 1; resources: body first-0+second-0, closed [second-0, first-0]; failing resource: body failed failing-0, suppressed close failed failing-0, closed [failing-0]; loop caught 2, finished 22
                        catch Throwable: nothing caught 1; catch Error: nothing caught 1; catch Exception: nothing caught, kept 2147483648; finally ran 1 time(s), result 11; nested: outer-try inner-try innermost-1 innermost-finally inner-finally outer-finally; right handler after-resume-1; callee threw callee-1, before 2; sleeps in handlers: try catch(thrown-1) finally; multi-catch ArithmeticException odd-1; rethrown wrapped caused by first-1, finally 1; resources: body first-1+second-1, closed [second-1, first-1]; failing resource: body failed failing-1, suppressed close failed failing-1, closed [failing-1]; loop caught 2, finished 22
                        catch Throwable: nothing caught 2; catch Error: nothing caught 2; catch Exception: nothing caught, kept 4294967296; finally ran 1 time(s), result 12; nested: outer-try inner-try innermost-2 innermost-finally inner-finally outer-finally; right handler after-resume-2; callee threw callee-2, before 4; sleeps in handlers: try catch(thrown-2) finally; multi-catch IllegalArgumentException even-2; rethrown wrapped caused by first-2, finally 1; resources: body first-2+second-2, closed [second-2, first-2]; failing resource: body failed failing-2, suppressed close failed failing-2, closed [failing-2]; loop caught 2, finished 22"""),
                arguments(BlockingInterfaceMethods.class, """
                        hello adax6;42
                        HELLO LOUDX3!;1044
                        hello gracex10;2046"""),
                arguments(FunctionalInterfacesCalledDirectly.class, """
                        ran;ran;supplied0,23,1099511627776
                        ran;ran;supplied1,33,2199023255553
                        ran;ran;supplied2,43,4398046511106"""),
                arguments(ThreadLambdas.class, """
                        plain lambda
                        captured:10:34359738375:19.25:3
                        method reference on instance
                        static method reference
                        steps 76
                        nested steps 22"""),
                arguments(LoopsWithSuspension.class, """
                        for 30, while 24, do 4 62.5, pairs 00 10 11 20 21 22 30 31, array 14, list ott, wide 1125281431552, condition 3, yields 100
                        for 55, while 120, do 4 62.5, pairs 00 10 11 20 21 22 30 31, array 15, list ott, wide 1125281431552, condition 4, yields 100
                        for 91, while 360, do 4 62.5, pairs 00 10 11 20 21 22 30 31, array 16, list ott, wide 1125281431552, condition 5, yields 100"""),
                arguments(TenThousandSleepers.class, "threads 10000, slots written 10000, sum 149995000"),
                arguments(NestedAndAnonymousClasses.class, """
                        static nested 68719476737
                        inner saw 100 and adds 5
                        deeper 5 6
                        local 100 after sleep
                        anonymous runnable 5.0
                        anonymous thread subclass 42
                        outer 101, written by inner 105"""),
                arguments(ValuesUnderArguments.class, """
                        14|04-x03|[0, 10, 20, 30]|[0, 8589934592]|[[0.0, 0.0], [3.5, 0.0]]|[word0, null]|65|held12|16|40|11|100803|true|[11, 9]|b
                        16|15-x13|[1, 11, 21, 31]|[0, 8589934592]|[[0.0, 0.0], [0.0, 3.5]]|[null, word1]|71|held13|17|53|11|110903|false|[12, 9]|c
                        18|26-x23|[2, 12, 22, 32]|[0, 8589934592]|[[0.0, 0.0], [3.5, 0.0]]|[word2, null]|77|held14|18|40|12|121003|false|[13, 9]|d"""),
                arguments(PrimitiveValues.class, """
                        1099511627776,0.1,-3,1.25,a,-100,30000,true,-9223372036854775808,-9223372036854775808,7ff8000000000123,1 | 2099511627776,0.375,11,0.625,c,-300,1000,true,false,102621085259093,0.09375 | 4614255444590799287,3.8785094139670176E12
                        1099511627777,0.2,4,2.5,b,-101,30001,false,-9223372036854775807,-9223372036854775808,7ff8000000000124,1 | 2099511627778,1.875,19,1.875,d,-303,1001,false,true,102621085259101,0.71875 | 4618762216352654570,1.551403765587182E13
                        1099511627778,0.30000000000000004,11,3.75,c,-102,30002,true,-9223372036854775806,-9223372036854775808,7ff8000000000125,1 | 2099511627780,3.375,27,3.125,e,-306,1002,true,false,102621085259077,1.34375 | 4621496020801564631,3.490658472571316E13"""),
                arguments(BlockingRecords.class, """
                        Measurement[name=m0, value=1, stamp=8589934592];2;Measurement[name=m0+n, value=11, stamp=8589934592];m0+n#22;true;LAZY0;[Measurement[name=m0, value=1, stamp=8589934592], Measurement[name=n, value=5, stamp=0]]
                        Measurement[name=m1, value=2, stamp=8589934592];4;Measurement[name=m1+n, value=12, stamp=8589934593];m1+n#24;true;LAZY1;[Measurement[name=m1, value=2, stamp=8589934592], Measurement[name=n, value=5, stamp=1]]
                        Measurement[name=m2, value=3, stamp=8589934592];6;Measurement[name=m2+n, value=13, stamp=8589934594];m2+n#26;true;LAZY2;[Measurement[name=m2, value=3, stamp=8589934592], Measurement[name=n, value=5, stamp=2]]"""),
                arguments(RecordWithBlockingConstructor.class, """
                        Delayed[value=0], kept 1099511627776
                        Delayed[value=3], kept 2199023255552
                        Delayed[value=6], kept 4398046511104"""),
                arguments(DeepRecursion.class, """
                        total 4192, bottom 223026
                        total 4081, bottom 543683
                        total 4159, bottom 864340"""),
                arguments(SwitchesWithSuspension.class, """
                        alpha=105|selected alpha|RED=1099511627777|another color selected|10|8|1001color:r1
                        beta=504|selected default BETA|GREEN=1099511627778|another color selected|21|-7|2001color:g
                        gamma=305|selected default GAMMA|BLUE=2199023255558|black selected|32|9|3045color:dark
                        Aa=402|selected Aa|BLACK=2199023255552|red selected|2|-7|4009color:dark
                        BB=502|selected BB|RED=1099511627777|another color selected|14|-7|5042color:r1
                        other=-5|selected default OTHER|GREEN=1099511627778|another color selected|25|35|6045color:g"""),
                arguments(Interruption.class, """
                        interrupted while sleeping, flag false, kept 4398046511104; interrupted() twice: true false; a sleep started while interrupted threw, flag false; slept again
                        interrupted in join, blocker alive true, flag false
                        alive after joins: false false false"""),
                arguments(InterruptedMonitorWaits.class, """
                        entrant before the interrupt BLOCKED; after it BLOCKED, alive true; entrant entered after the holder left true, interrupt status true
                        waiter in wait WAITING; interrupted while the holder sleeps BLOCKED; waiter interrupted after the holder left true, holds the lock true, interrupt status false"""),
                arguments(WaitOnThreadObjects.class, "a thread saw the sleeper end, alive false, woken true; the program's"
                        + " thread saw the second sleeper end, state TERMINATED; a timed wait saw the third sleeper end"
                        + " before its deadline true"),
                arguments(SpinWaiting.class, "the spinner saw 42; token passed 1000 and 1000 times, turn 2000; the"
                        + " subclass saw ready true"),
                arguments(ThreadGroups.class, """
                        Thread.activeCount in sub 3, Thread.enumerate [counter, sub-0, sub-1]
                        workers.activeCount 5, sub.activeCount 2, workers.activeGroupCount 1
                        enumerate 5 [sub-0, sub-1, worker-0, worker-1, worker-2]
                        enumerate without subgroups 3 [worker-0, worker-1, worker-2]
                        enumerate into two places 2
                        interrupted by the group [sub-0 in sub, sub-1 in sub, worker-0 in workers, worker-1 in workers, worker-2 in workers]
                        after the interrupt workers.activeCount 0, group of a terminated thread null, state TERMINATED"""),
                arguments(JoinAndYield.class, """
                        never started: alive false
                        chain: [1, 4, 14, 45, 139, 422], first alive false
                        gated before start: alive false, after start: alive true, after join(20): alive true, after release and join(60000): alive false
                        join(60000) of a short thread: alive false
                        yield counters: [500, 1000, 1500]"""),
                arguments(ThreadProperties.class, """
                        states before start: NEW false, daemon flags true false
                        inside: given-name
                        inside: renamed-before-start
                        daemon inside true, child inherits true, priority 3, child priority 3
                        ordinary daemon false, child inherits false
                        names after: renamed by itself, renamed-before-start
                        states after join: TERMINATED false
                        setDaemon refused on a live thread, second start refused, gated daemon false, alive false"""),
                arguments(ThreadSubclasses.class, """
                        first/first/true/true/1099511627776
                        second/second/true/true/1099511627777
                        counting-third/counting-third/true/true/1099511627778/sum 10
                        target of fourth then fourth"""),
                arguments(UncaughtExceptions.class, """
                        handler installed: true
                        handler installed: true
                        handler installed: true
                        thrower-0 threw IllegalStateException 'boom-0', same instance true, on that thread true
                        thrower-1 threw UnsupportedOperationException 'deep-1', same instance true, on that thread true
                        thrower-2 threw CustomError 'error-2', same instance true, on that thread true"""));
    }
}
