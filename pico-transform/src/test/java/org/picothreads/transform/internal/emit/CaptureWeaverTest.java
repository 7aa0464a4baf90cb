package org.picothreads.transform.internal.emit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.tree.MethodNode;
import org.picothreads.transform.internal.analysis.MethodPlan;
import org.picothreads.transform.testing.MethodListing;
import org.picothreads.transform.testing.SampleMethods;

/** The capture and restore code woven from a method's plan, at a site whose stack holds a constant. */
class CaptureWeaverTest {
    @Test
    void the_normal_path_spills_and_reloads_the_stack_and_its_handler_hands_the_saved_values_to_the_capture_helper() {
        MethodNode method = SampleMethods.scaled();
        MethodPlan plan = SampleMethods.plan(method);
        CaptureWeaver.weaveNormalPath(method, plan.capturedCalls(), plan);
        assertEquals("""
                    TRYCATCHBLOCK L0 L1 L2 org/picothreads/runtime/internal/Capture
                   L3
                    LINENUMBER 7 L3
                    ILOAD 0
                    ICONST_2
                    ALOAD 1
                    ASTORE 3
                    POP
                    ISTORE 2
                    ALOAD 3
                   L0
                    INVOKESTATIC sample/Blocking.take (Ljava/lang/String;)I
                   L1
                    ISTORE 4
                    ILOAD 2
                    ICONST_2
                    ILOAD 4
                    IMUL
                    IADD
                    ILOAD 0
                    IADD
                    IRETURN
                   L2
                    ILOAD 0
                    ILOAD 2
                    ALOAD 3
                    INVOKESTATIC sample/Sample.$picothreads$capture$0$0 (IILjava/lang/Object;)V
                    ATHROW
                    MAXSTACK = 3
                    MAXLOCALS = 5
                """, MethodListing.of(method));
    }

    @Test
    void the_capture_helper_pushes_the_continued_values_and_the_arguments_only_in_the_innermost_activation() {
        List<MethodNode> helpers = CaptureWeaver.captureHelpers(SampleMethods.plan(SampleMethods.scaled()));
        assertEquals(1, helpers.size());
        assertEquals("$picothreads$capture$0$0", helpers.get(0).name);
        assertEquals("(IILjava/lang/Object;)V", helpers.get(0).desc);
        assertEquals("""
                    ACONST_NULL
                    ICONST_0
                    LDC 8590000128L
                    INVOKEDYNAMIC capture(Ljava/lang/Object;IJ)Lorg/picothreads/runtime/internal/Frame; [
                      // handle kind 0x6 : INVOKESTATIC
                      org/picothreads/runtime/internal/Continuation.link(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;Ljava/lang/String;)Ljava/lang/invoke/CallSite;
                      // arguments:
                      "sample/Sample.scaled(ILjava/lang/String;)I"
                    ]
                    DUP
                    ILOAD 0
                    INVOKEVIRTUAL org/picothreads/runtime/internal/Frame.pushInt (I)V
                    DUP
                    ILOAD 1
                    INVOKEVIRTUAL org/picothreads/runtime/internal/Frame.pushInt (I)V
                    DUP
                    INVOKEVIRTUAL org/picothreads/runtime/internal/Frame.savesArguments ()Z
                    IFEQ L0
                    DUP
                    ALOAD 2
                    INVOKEVIRTUAL org/picothreads/runtime/internal/Frame.pushObject (Ljava/lang/Object;)V
                   L0
                    POP
                    RETURN
                    MAXSTACK = 0
                    MAXLOCALS = 0
                """, MethodListing.of(helpers.get(0)));
    }

    @Test
    void the_continuation_switches_on_the_resume_point_to_invoke_the_call_again_or_to_continue_with_its_result() {
        MethodNode method = SampleMethods.scaled();
        MethodPlan plan = SampleMethods.plan(method);
        CaptureWeaver.weaveContinuation(method, plan);
        assertEquals("""
                    TRYCATCHBLOCK L0 L1 L2 org/picothreads/runtime/internal/Capture
                    INVOKEDYNAMIC resume()Lorg/picothreads/runtime/internal/Frame; [
                      // handle kind 0x6 : INVOKESTATIC
                      org/picothreads/runtime/internal/Continuation.link(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;Ljava/lang/String;)Ljava/lang/invoke/CallSite;
                      // arguments:
                      "sample/Sample.scaled(ILjava/lang/String;)I"
                    ]
                    DUP
                    IFNONNULL L3
                    LDC "sample/Sample.scaled(ILjava/lang/String;)I"
                    INVOKESTATIC org/picothreads/runtime/internal/ResumeErrors.continuationRefused (Ljava/lang/String;)Ljava/lang/IllegalCallerException;
                    ATHROW
                   L3
                    ASTORE 4
                    ALOAD 4
                    INVOKEVIRTUAL org/picothreads/runtime/internal/Frame.resumePoint ()I
                    DUP
                    IFLT L4
                    TABLESWITCH
                      0: L5
                      1: L6
                      default: L7
                   L7
                    LDC "sample/Sample.scaled(ILjava/lang/String;)I"
                    INVOKESTATIC org/picothreads/runtime/internal/ResumeErrors.invalidResumePoint (Ljava/lang/String;)Ljava/lang/IllegalStateException;
                    ATHROW
                   L4
                    POP
                    GOTO L8
                   L5
                    ALOAD 4
                    INVOKEVIRTUAL org/picothreads/runtime/internal/Frame.popInt ()I
                    ISTORE 0
                    ALOAD 4
                    INVOKEVIRTUAL org/picothreads/runtime/internal/Frame.popInt ()I
                    ISTORE 2
                    ALOAD 4
                    INVOKEVIRTUAL org/picothreads/runtime/internal/Frame.popObject ()Ljava/lang/Object;
                    CHECKCAST java/lang/String
                    ASTORE 3
                    GOTO L9
                   L6
                    ALOAD 4
                    INVOKEVIRTUAL org/picothreads/runtime/internal/Frame.popInt ()I
                    ISTORE 0
                    ALOAD 4
                    INVOKEVIRTUAL org/picothreads/runtime/internal/Frame.popInt ()I
                    ISTORE 2
                    GOTO L10
                   L8
                   L11
                    LINENUMBER 7 L11
                    ILOAD 0
                    ICONST_2
                    ALOAD 1
                    ASTORE 3
                    POP
                    ISTORE 2
                   L9
                    ILOAD 2
                    ICONST_2
                    ALOAD 3
                   L0
                    INVOKESTATIC sample/Blocking.take (Ljava/lang/String;)I
                   L1
                    IMUL
                    IADD
                    ILOAD 0
                    IADD
                    IRETURN
                   L2
                    ILOAD 0
                    ILOAD 2
                    ALOAD 3
                    INVOKESTATIC sample/Sample.$picothreads$capture$0$0 (IILjava/lang/Object;)V
                    POP
                    ICONST_0
                    IRETURN
                   L10
                    ILOAD 2
                    ICONST_2
                   L12
                    INVOKESTATIC org/picothreads/runtime/internal/Continuation.resultInt ()I
                   L13
                    GOTO L1
                    MAXSTACK = 3
                    MAXLOCALS = 5
                """, MethodListing.of(method));
    }

    @Test
    void at_a_call_of_its_own_method_the_normal_path_spills_only_to_reach_the_values_below_and_its_handler_passes_no_argument() {
        MethodNode method = SampleMethods.scaledCallingItsOwnMethod();
        MethodPlan plan = SampleMethods.planCallingItsOwnMethod(method);
        CaptureWeaver.weaveNormalPath(method, plan.capturedCalls(), plan);
        assertEquals("""
                    TRYCATCHBLOCK L0 L1 L2 org/picothreads/runtime/internal/Capture
                   L3
                    LINENUMBER 7 L3
                    ILOAD 0
                    ICONST_2
                    ALOAD 1
                    ASTORE 3
                    POP
                    ISTORE 2
                    ALOAD 3
                   L0
                    INVOKESTATIC sample/Sample.take (Ljava/lang/String;)I
                   L1
                    ISTORE 4
                    ILOAD 2
                    ICONST_2
                    ILOAD 4
                    IMUL
                    IADD
                    ILOAD 0
                    IADD
                    IRETURN
                   L2
                    ILOAD 0
                    ILOAD 2
                    INVOKESTATIC sample/Sample.$picothreads$capture$0$0 (II)V
                    ATHROW
                    MAXSTACK = 3
                    MAXLOCALS = 5
                """, MethodListing.of(method));
    }

    @Test
    void at_a_call_of_its_own_method_the_continuation_only_continues_after_the_call_and_enters_the_callee_s_continuation_fresh() {
        MethodNode method = SampleMethods.scaledCallingItsOwnMethod();
        MethodPlan plan = SampleMethods.planCallingItsOwnMethod(method);
        CaptureWeaver.weaveContinuation(method, plan);
        assertEquals("""
                    TRYCATCHBLOCK L0 L1 L2 org/picothreads/runtime/internal/Capture
                    INVOKEDYNAMIC resume()Lorg/picothreads/runtime/internal/Frame; [
                      // handle kind 0x6 : INVOKESTATIC
                      org/picothreads/runtime/internal/Continuation.link(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;Ljava/lang/String;)Ljava/lang/invoke/CallSite;
                      // arguments:
                      "sample/Sample.scaled(ILjava/lang/String;)I"
                    ]
                    DUP
                    IFNONNULL L3
                    LDC "sample/Sample.scaled(ILjava/lang/String;)I"
                    INVOKESTATIC org/picothreads/runtime/internal/ResumeErrors.continuationRefused (Ljava/lang/String;)Ljava/lang/IllegalCallerException;
                    ATHROW
                   L3
                    ASTORE 4
                    ALOAD 4
                    INVOKEVIRTUAL org/picothreads/runtime/internal/Frame.resumePoint ()I
                    DUP
                    IFLT L4
                    TABLESWITCH
                      0: L5
                      1: L6
                      default: L5
                   L5
                    LDC "sample/Sample.scaled(ILjava/lang/String;)I"
                    INVOKESTATIC org/picothreads/runtime/internal/ResumeErrors.invalidResumePoint (Ljava/lang/String;)Ljava/lang/IllegalStateException;
                    ATHROW
                   L4
                    POP
                    GOTO L7
                   L6
                    ALOAD 4
                    INVOKEVIRTUAL org/picothreads/runtime/internal/Frame.popInt ()I
                    ISTORE 0
                    ALOAD 4
                    INVOKEVIRTUAL org/picothreads/runtime/internal/Frame.popInt ()I
                    ISTORE 2
                    GOTO L8
                   L7
                   L9
                    LINENUMBER 7 L9
                    ILOAD 0
                    ICONST_2
                    ALOAD 1
                    ASTORE 3
                    POP
                    ISTORE 2
                   L10
                    ILOAD 2
                    ICONST_2
                    ALOAD 3
                    ALOAD 4
                    INVOKEVIRTUAL org/picothreads/runtime/internal/Frame.requestFreshEntry ()V
                    ACONST_NULL
                   L0
                    INVOKESTATIC sample/Sample.take (Ljava/lang/String;Lorg/picothreads/runtime/internal/Frame;)I
                    ALOAD 4
                    INVOKEVIRTUAL org/picothreads/runtime/internal/Frame.captureUnderWay ()Z
                    IFNE L11
                   L1
                    IMUL
                    IADD
                    ILOAD 0
                    IADD
                    IRETURN
                   L2
                    ILOAD 0
                    ILOAD 2
                    INVOKESTATIC sample/Sample.$picothreads$capture$0$0 (II)V
                    POP
                    ICONST_0
                    IRETURN
                   L11
                    POP
                    POP
                    POP
                    ACONST_NULL
                    ILOAD 0
                    ILOAD 2
                    INVOKESTATIC sample/Sample.$picothreads$capture$0$0 (II)V
                    POP
                    ICONST_0
                    IRETURN
                   L8
                    ILOAD 2
                    ICONST_2
                   L12
                    INVOKESTATIC org/picothreads/runtime/internal/Continuation.resultInt ()I
                   L13
                    GOTO L1
                    MAXSTACK = 3
                    MAXLOCALS = 5
                """, MethodListing.of(method));
        List<MethodNode> helpers = CaptureWeaver.captureHelpers(plan);
        assertEquals("(II)V", helpers.get(0).desc);
        // two primitives, no argument: no test of savesArguments
        assertEquals("""
                    ACONST_NULL
                    ICONST_0
                    LDC 8589934592L
                    INVOKEDYNAMIC capture(Ljava/lang/Object;IJ)Lorg/picothreads/runtime/internal/Frame; [
                      // handle kind 0x6 : INVOKESTATIC
                      org/picothreads/runtime/internal/Continuation.link(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;Ljava/lang/String;)Ljava/lang/invoke/CallSite;
                      // arguments:
                      "sample/Sample.scaled(ILjava/lang/String;)I"
                    ]
                    DUP
                    ILOAD 0
                    INVOKEVIRTUAL org/picothreads/runtime/internal/Frame.pushInt (I)V
                    DUP
                    ILOAD 1
                    INVOKEVIRTUAL org/picothreads/runtime/internal/Frame.pushInt (I)V
                    POP
                    RETURN
                    MAXSTACK = 0
                    MAXLOCALS = 0
                """, MethodListing.of(helpers.get(0)));
    }

    @Test
    void at_a_call_into_the_runtime_the_continuation_passes_a_testing_token_and_saves_itself_when_a_capture_returned() {
        MethodNode method = SampleMethods.scaledCallingTheRuntime();
        MethodPlan plan = SampleMethods.planCallingTheRuntime(method);
        CaptureWeaver.weaveContinuation(method, plan);
        assertEquals("""
                    TRYCATCHBLOCK L0 L1 L2 org/picothreads/runtime/internal/Capture
                    INVOKEDYNAMIC resume()Lorg/picothreads/runtime/internal/Frame; [
                      // handle kind 0x6 : INVOKESTATIC
                      org/picothreads/runtime/internal/Continuation.link(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;Ljava/lang/String;)Ljava/lang/invoke/CallSite;
                      // arguments:
                      "sample/Sample.scaled(ILjava/lang/String;)I"
                    ]
                    DUP
                    IFNONNULL L3
                    LDC "sample/Sample.scaled(ILjava/lang/String;)I"
                    INVOKESTATIC org/picothreads/runtime/internal/ResumeErrors.continuationRefused (Ljava/lang/String;)Ljava/lang/IllegalCallerException;
                    ATHROW
                   L3
                    ASTORE 4
                    ALOAD 4
                    INVOKEVIRTUAL org/picothreads/runtime/internal/Frame.resumePoint ()I
                    DUP
                    IFLT L4
                    TABLESWITCH
                      0: L5
                      1: L6
                      default: L7
                   L7
                    LDC "sample/Sample.scaled(ILjava/lang/String;)I"
                    INVOKESTATIC org/picothreads/runtime/internal/ResumeErrors.invalidResumePoint (Ljava/lang/String;)Ljava/lang/IllegalStateException;
                    ATHROW
                   L4
                    POP
                    GOTO L8
                   L5
                    ALOAD 4
                    INVOKEVIRTUAL org/picothreads/runtime/internal/Frame.popInt ()I
                    ISTORE 0
                    ALOAD 4
                    INVOKEVIRTUAL org/picothreads/runtime/internal/Frame.popInt ()I
                    ISTORE 2
                    ALOAD 4
                    INVOKEVIRTUAL org/picothreads/runtime/internal/Frame.popObject ()Ljava/lang/Object;
                    CHECKCAST java/lang/String
                    ASTORE 3
                    GOTO L9
                   L6
                    ALOAD 4
                    INVOKEVIRTUAL org/picothreads/runtime/internal/Frame.popInt ()I
                    ISTORE 0
                    ALOAD 4
                    INVOKEVIRTUAL org/picothreads/runtime/internal/Frame.popInt ()I
                    ISTORE 2
                    GOTO L10
                   L8
                   L11
                    LINENUMBER 7 L11
                    ILOAD 0
                    ICONST_2
                    ALOAD 1
                    ASTORE 3
                    POP
                    ISTORE 2
                   L9
                    ILOAD 2
                    ICONST_2
                    ALOAD 3
                    ALOAD 4
                    INVOKESTATIC org/picothreads/runtime/internal/CallerToken.passChecking (Ljava/lang/Object;)V
                   L0
                    INVOKESTATIC org/picothreads/runtime/concurrent/ConcurrentCalls.take (Ljava/lang/String;)I
                    ALOAD 4
                    INVOKEVIRTUAL org/picothreads/runtime/internal/Frame.captureUnderWay ()Z
                    IFNE L12
                   L1
                    IMUL
                    IADD
                    ILOAD 0
                    IADD
                    IRETURN
                   L2
                    ILOAD 0
                    ILOAD 2
                    ALOAD 3
                    INVOKESTATIC sample/Sample.$picothreads$capture$0$0 (IILjava/lang/Object;)V
                    POP
                    ICONST_0
                    IRETURN
                   L12
                    POP
                    POP
                    POP
                    ACONST_NULL
                    ILOAD 0
                    ILOAD 2
                    ALOAD 3
                    INVOKESTATIC sample/Sample.$picothreads$capture$0$0 (IILjava/lang/Object;)V
                    POP
                    ICONST_0
                    IRETURN
                   L10
                    ILOAD 2
                    ICONST_2
                   L13
                    INVOKESTATIC org/picothreads/runtime/internal/Continuation.resultInt ()I
                   L14
                    GOTO L1
                    MAXSTACK = 3
                    MAXLOCALS = 5
                """, MethodListing.of(method));
    }

    @Test
    void a_fresh_entry_into_a_callee_left_without_a_continuation_becomes_the_call_of_the_method_again() {
        MethodNode method = SampleMethods.scaledCallingItsOwnMethod();
        MethodPlan plan = SampleMethods.planCallingItsOwnMethod(method);
        CaptureWeaver.weaveContinuation(method, plan);
        CaptureWeaver.unlinkFreshEntries(method, "sample/Sample", key -> false);
        String listing = MethodListing.of(method);
        assertTrue(listing.contains("INVOKESTATIC sample/Sample.take (Ljava/lang/String;)I"), listing);
        assertFalse(listing.contains("requestFreshEntry"), listing);
        assertFalse(listing.contains("ACONST_NULL\n                   L0"), listing);

        MethodNode kept = SampleMethods.scaledCallingItsOwnMethod();
        CaptureWeaver.weaveContinuation(kept, SampleMethods.planCallingItsOwnMethod(kept));
        CaptureWeaver.unlinkFreshEntries(kept, "sample/Sample", key -> key.equals("take(Ljava/lang/String;)I"));
        String keptListing = MethodListing.of(kept);
        assertTrue(keptListing.contains(
                "INVOKESTATIC sample/Sample.take (Ljava/lang/String;Lorg/picothreads/runtime/internal/Frame;)I"),
                keptListing);
        assertTrue(keptListing.contains("requestFreshEntry"), keptListing);
    }
}
