package io.fiberjvm.transport.rsocket;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SecretProofTest {

	private final SecretProof server = new SecretProof("s3cret");

	@Test
	void aSetupFromAPeerThatKnowsTheSecretIsAcceptedOnce() {
		byte[] setup = new SecretProof("s3cret").setupFor("worker-1");
		assertThat(new String(setup, StandardCharsets.UTF_8)).doesNotContain("s3cret");
		assertThat(server.refusal(setup, "worker-1")).isNull();
		assertThat(server.refusal(setup, "worker-1")).contains("replayed");
	}

	@Test
	void wrongSecretNoSecretPlainSecretAndAnotherPeersProofAreRefused() {
		assertThat(server.refusal(new SecretProof("guess").setupFor("w"), "w")).isEqualTo("wrong secret");
		assertThat(server.refusal(new byte[0], "w")).contains("no secret");
		assertThat(server.refusal("s3cret".getBytes(StandardCharsets.UTF_8), "w")).contains("no proof of the secret");
		assertThat(server.refusal(new SecretProof("s3cret").setupFor("worker-1"), "worker-2")).isEqualTo("wrong secret");
	}

	@Test
	void aStaleSetupIsRefused() {
		String[] parts = new String(new SecretProof("s3cret").setupFor("w"), StandardCharsets.UTF_8).split(":");
		String old = "fiber1:" + (Long.parseLong(parts[1]) - 3_600_000) + ":" + parts[2] + ":" + parts[3];
		// The timestamp is inside the MAC, so changing it breaks the proof first.
		assertThat(server.refusal(old.getBytes(StandardCharsets.UTF_8), "w")).isEqualTo("wrong secret");
	}

	@Test
	void helloAnswersProveTheServerKnowsTheSecret() {
		String nonce = SecretProof.nonce();
		byte[] answer = server.helloAnswer(nonce.getBytes(StandardCharsets.UTF_8));
		assertThat(new SecretProof("s3cret").checksHelloAnswer(nonce, answer)).isTrue();
		assertThat(new SecretProof("other").checksHelloAnswer(nonce, answer)).isFalse();
		assertThat(new SecretProof("s3cret").checksHelloAnswer(SecretProof.nonce(), answer)).isFalse();
	}
}
