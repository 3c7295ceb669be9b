package io.fiberjvm.transport;

import java.security.MessageDigest;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The run's TLS identity, derived from its secret. */
class RunTlsTest {

	private static String fingerprint(RunTls tls) throws Exception {
		return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(tls.certificate().getEncoded()));
	}

	@Test
	void everyProcessOfARunDerivesTheSameCertificateOnAnyJvm() throws Exception {
		// A known answer: a JVM that made another certificate from this secret could not talk to the others.
		assertThat(fingerprint(RunTls.derive("abc"))).isEqualTo(KNOWN_ABC);
		assertThat(fingerprint(RunTls.derive("abc"))).isEqualTo(fingerprint(RunTls.derive("abc")));
	}

	@Test
	void anotherSecretMakesAnotherKeyAndTheCertificateIsSelfSigned() throws Exception {
		RunTls run = RunTls.derive("the-run-secret");
		RunTls other = RunTls.derive("another-run-secret");
		assertThat(other.certificate().getPublicKey()).isNotEqualTo(run.certificate().getPublicKey());
		run.certificate().verify(run.certificate().getPublicKey());
		run.certificate().checkValidity();
		assertThat(run.certificate().getSubjectX500Principal().getName()).isEqualTo("CN=fiber-run");
		assertThat(run.toString()).doesNotContain(HexFormat.of().formatHex(run.privateKey().getEncoded()));
	}

	private static final String KNOWN_ABC = "36756b0b8595f9163392fb1291cd06aa47672bad14f806e876a8b71b411ed141";
}
