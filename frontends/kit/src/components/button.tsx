// The one button: always a real <button>, type="button" unless a form submit is asked for.
import { forwardRef, type ButtonHTMLAttributes } from 'react';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'secondary' | 'ghost' | 'danger';
  size?: 'sm' | 'md' | 'lg';
  block?: boolean;
}

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant = 'primary', size = 'md', block = false, className, type = 'button', ...rest },
  ref,
) {
  const classes = [
    'kb-button',
    variant !== 'primary' && `kb-button--${variant}`,
    size !== 'md' && `kb-button--${size}`,
    block && 'kb-button--block',
    className,
  ]
    .filter(Boolean)
    .join(' ');
  return <button ref={ref} type={type} className={classes} {...rest} />;
});
