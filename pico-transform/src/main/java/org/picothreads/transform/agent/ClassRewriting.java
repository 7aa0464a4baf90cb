package org.picothreads.transform.agent;

import java.util.List;
import org.picothreads.transform.ClassInput;
import org.picothreads.transform.PicoTransformer;
import org.picothreads.transform.TransformException;
import org.picothreads.transform.TransformResult;

/**
 * The calls the agent makes into the transformer, {@link PicoTransformer#transform} above all, as a function it can
 * be given.
 */
@FunctionalInterface
interface ClassRewriting {
    /** Transforms the classes together. */
    TransformResult rewrite(List<ClassInput> classes) throws TransformException;

    /**
     * The class that uses sockets without pico-net, as {@link PicoTransformer#socketUserWithoutPicoNet}; a rewriting
     * given as a function alone knows of none.
     */
    default String socketUserWithoutPicoNet(List<ClassInput> classes) throws TransformException {
        return null;
    }

    /** Both calls made on {@code transformer}. */
    static ClassRewriting by(PicoTransformer transformer) {
        return new ClassRewriting() {
            @Override
            public TransformResult rewrite(List<ClassInput> classes) throws TransformException {
                return transformer.transform(classes);
            }

            @Override
            public String socketUserWithoutPicoNet(List<ClassInput> classes) throws TransformException {
                return transformer.socketUserWithoutPicoNet(classes);
            }
        };
    }
}
