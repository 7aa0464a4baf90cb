package org.picothreads.transform.validation;

import java.util.List;
import org.picothreads.demo.ManySleepers;
import org.picothreads.targets.callbacks.JdkCallbacks;
import org.picothreads.targets.concatenation.ConcatenationCallingBlockingToString;
import org.picothreads.targets.concatenation.StringConcatenation;
import org.picothreads.targets.constructors.ConstructorArguments;
import org.picothreads.targets.exceptions.ExceptionTables;
import org.picothreads.targets.interfaces.BlockingInterfaceMethods;
import org.picothreads.targets.interfaces.ClosesThroughInterfaces;
import org.picothreads.targets.lambdas.FunctionalInterfacesCalledDirectly;
import org.picothreads.targets.lambdas.ThreadLambdas;
import org.picothreads.targets.loops.LoopsWithSuspension;
import org.picothreads.targets.manythreads.TenThousandSleepers;
import org.picothreads.targets.methodrefs.BoundReferencesToRedirectedMethods;
import org.picothreads.targets.nested.NestedAndAnonymousClasses;
import org.picothreads.targets.operandstack.ValuesUnderArguments;
import org.picothreads.targets.platform.PlatformThreadSleeper;
import org.picothreads.targets.primitives.PrimitiveValues;
import org.picothreads.targets.records.BlockingRecords;
import org.picothreads.targets.records.RecordWithBlockingConstructor;
import org.picothreads.targets.recursion.DeepRecursion;
import org.picothreads.targets.switches.SwitchesWithSuspension;
import org.picothreads.targets.threadlocals.ThreadLocalsPerThread;
import org.picothreads.targets.threads.InterruptedMonitorWaits;
import org.picothreads.targets.threads.Interruption;
import org.picothreads.targets.threads.JoinAndYield;
import org.picothreads.targets.threads.SpinWaiting;
import org.picothreads.targets.threads.ThreadGroups;
import org.picothreads.targets.threads.ThreadProperties;
import org.picothreads.targets.threads.ThreadSubclasses;
import org.picothreads.targets.threads.UncaughtExceptions;
import org.picothreads.targets.threads.WaitOnThreadObjects;

/** The validation targets, one class with {@code public static String run()} per program, and their packages. */
final class ValidationTargets {
    /** Every target that starts threads and blocks in them. */
    static final List<Class<?>> THREADED = List.of(
            PrimitiveValues.class,
            ValuesUnderArguments.class,
            ConstructorArguments.class,
            StringConcatenation.class,
            ConcatenationCallingBlockingToString.class,
            ThreadLambdas.class,
            BoundReferencesToRedirectedMethods.class,
            FunctionalInterfacesCalledDirectly.class,
            JdkCallbacks.class,
            BlockingInterfaceMethods.class,
            ClosesThroughInterfaces.class,
            SwitchesWithSuspension.class,
            BlockingRecords.class,
            RecordWithBlockingConstructor.class,
            NestedAndAnonymousClasses.class,
            ThreadSubclasses.class,
            JoinAndYield.class,
            Interruption.class,
            InterruptedMonitorWaits.class,
            WaitOnThreadObjects.class,
            SpinWaiting.class,
            ThreadGroups.class,
            ThreadProperties.class,
            UncaughtExceptions.class,
            DeepRecursion.class,
            ExceptionTables.class,
            LoopsWithSuspension.class,
            TenThousandSleepers.class,
            ThreadLocalsPerThread.class);

    /** The package prefix of every compiled target and demo program, each with its subpackages. */
    static final List<String> PACKAGE_PREFIXES = List.of(
            "org.picothreads.targets.",
            ManySleepers.class.getPackageName() + ".");

    /** The target that blocks the thread calling it directly rather than in threads of its own. */
    static final Class<?> PLATFORM_THREAD_TARGET = PlatformThreadSleeper.class;

    private ValidationTargets() {
    }
}
