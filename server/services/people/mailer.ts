/** Optional outgoing mail (invitations) through an SMTP server named by SMTP_URL; without it, links are only shown. */
import nodemailer from 'nodemailer';

export interface Mailer {
  send(message: { to: string; subject: string; text: string }): Promise<void>;
}

/** `smtpUrl`: e.g. 'smtp://user:pass@mail.example.com:587' or 'smtps://…:465'. */
export function createSmtpMailer(options: { smtpUrl: string; from: string }): Mailer {
  const transport = nodemailer.createTransport(options.smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from: options.from, ...message });
    },
  };
}
