package io.fiberjvm;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares what a target class needs when it runs in a job-backed process.
 *
 * <p>Values set on a {@link ProcessCall} override these. See {@link ResourceSpec} for what each
 * backend does with them.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Resources {

	/** Cores; 0 leaves it unspecified. */
	double cpu() default 0;

	/** Memory as a size ({@code 512Mi}, {@code 2Gi}); empty leaves it unspecified. */
	String memory() default "";

	/** Whole GPUs; 0 asks for none. */
	int gpu() default 0;
}
