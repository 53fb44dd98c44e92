-- AlterTable
ALTER TABLE "Session" ADD COLUMN     "lastUsedAt" TIMESTAMPTZ(3),
ADD COLUMN     "userAgent" TEXT;
