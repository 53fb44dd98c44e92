-- AlterTable
ALTER TABLE "WebhookEndpoint" ADD COLUMN     "failingSince" TIMESTAMPTZ(3),
ADD COLUMN     "lastSuccessAt" TIMESTAMPTZ(3),
ADD COLUMN     "previousSecret" TEXT,
ADD COLUMN     "previousSecretExpiresAt" TIMESTAMPTZ(3),
ADD COLUMN     "throttledUntil" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "WebhookDelivery_createdAt_idx" ON "WebhookDelivery"("createdAt");
