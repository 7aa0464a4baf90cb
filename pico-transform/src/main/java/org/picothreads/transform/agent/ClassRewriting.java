package org.picothreads.transform.agent;

import java.util.List;
import org.picothreads.transform.ClassInput;
import org.picothreads.transform.PicoTransformer;
import org.picothreads.transform.TransformException;
import org.picothreads.transform.TransformResult;

/** The one call the agent makes into the transformer, {@link PicoTransformer#transform}, as a function it can be given. */
@FunctionalInterface
interface ClassRewriting {
    /** Transforms the classes together. */
    TransformResult rewrite(List<ClassInput> classes) throws TransformException;
}
