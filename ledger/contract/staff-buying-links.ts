import { z } from 'zod';
import { ByUserId } from './common.js';
import { PaymentMethodParams, PaymentMethodView } from './payment-methods.js';

/*
 * The staff profile's Payment Management tab (spec 002 section 9): a customer's payment methods
 * as staff see them and the custom crypto buying links. Apart from staff-users.ts so the client
 * reads it without the wallet's rules.
 */

/** The three fixed buying services every customer sees, labelled 'Default' on the staff screen. */
export { DEFAULT_BUYING_SERVICES } from '../buying-links/buying-links.js';

/** Logo limit (spec 002 section 9): PNG only, under 512000 bytes. */
export const LOGO_MAX_BYTES = 512_000;
export const LINK_MESSAGES = {
  logoRequired: 'Please upload a logo image',
  logoNotPng: 'Please upload a PNG file only',
  logoTooLarge: 'File size should be less than 500KB',
} as const;

/** A customer's payment method as staff see it (no holder name, no notes). */
export const StaffPaymentMethod = PaymentMethodView.omit({ card_holder_name: true, notes: true });

/** A customer's payment methods as staff see them, and one of them. */
export const StaffPaymentMethods = z.object({ paymentMethods: z.array(StaffPaymentMethod) });
export const StaffPaymentMethodAnswer = z.object({ paymentMethod: StaffPaymentMethod });

/** The path of one customer's payment method as staff open it: whose (a UUID), and which (as the customer's own call takes it). */
export const StaffPaymentMethodParams = ByUserId.extend(PaymentMethodParams.shape);

/** The buying links read: a customer's links (staff name the customer; a customer reads their own). */
export const BuyingLinksQuery = z.object({ userId: z.uuid().optional() });

/**
 * A new buying link for a customer: its address, name and PNG logo (base64). Empty fields and a
 * logo that is no PNG or too large are refused with the spec's texts.
 */
export const AddBuyingLinkBody = z.object({
  userId: z.uuid(),
  url: z.string().max(4000).nullish(),
  name: z.string().max(1000).nullish(),
  logo: z.object({ fileName: z.string().max(255), contentType: z.string().max(100).nullish(), data: z.string().max(1_500_000) }).nullish(),
});

/** The path of a call about one buying link. Any short text: an id of another shape is 'not found' (404), as an unknown one. */
export const BuyingLinkParams = z.object({ id: z.string().max(100) });

/** Removing a buying link: whose (the link's id is in the path). */
export const RemoveBuyingLinkQuery = z.object({ userId: z.uuid() });

export const BuyingLink = z.object({
  id: z.string(),
  user_id: z.string(),
  url: z.string(),
  name: z.string(),
  logo_url: z.string(),
  created_at: z.string(),
});
/** A buying link just added. */
export const BuyingLinkAdded = z.object({ link: BuyingLink });
export const BuyingLinks = z.object({
  defaults: z.array(z.object({ id: z.string(), name: z.string(), url: z.string(), description: z.string() })).readonly(),
  links: z.array(BuyingLink),
});
